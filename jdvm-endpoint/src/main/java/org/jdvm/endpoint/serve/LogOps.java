package org.jdvm.endpoint.serve;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.endpoint.deliver.OutputRouter;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.body.LogRequest;
import org.jdvm.pmix.json.Json;

/**
 * {@code PMIx_Log} (LOG, docs/wireup.md §c.6; docs/protocol.md "How jdvm reads the standard
 * commands"): what a process logs reaches the user. {@code pmix.log.stderr} and {@code
 * pmix.log.stdout} go out as the process's own standard error or output would, to the job's tool
 * (the connection that spawned the job, or the one its parent job's output goes to) and to IOF
 * pulls; {@code pmix.log.msg} is Open MPI 4.1's help text, whose text goes to standard error; the
 * syslog channels, and whatever nobody receives, go to the DVM's log. A line gets a newline if it
 * has none, so that log lines and output do not run together. What a job logs is bounded ({@link
 * org.jdvm.endpoint.deliver.LogBudget}, and no line for a reader behind on output): a request past
 * it is answered {@code PMIX_ERR_OUT_OF_RESOURCE}, its lines dropped and counted, with no log line
 * of its own.
 */
public final class LogOps {
  private static final System.Logger PEER_LOG = System.getLogger(OutputRouter.PEER_LOGGER);

  private final OutputRouter output;

  public LogOps(OutputRouter output) {
    this.output = output;
  }

  /** Where one logged text goes. */
  private enum Channel {
    STDERR,
    STDOUT,
    SYSLOG
  }

  private record Line(Channel channel, String text) {}

  /**
   * LOG ({@link LogRequest}); answered {@code STATUS}. Every datum is checked before any is
   * delivered; a request none of whose data jdvm can log is {@code PMIX_ERR_NOT_SUPPORTED}.
   */
  void log(Exchange x) throws BadRequest {
    LogRequest request = LogRequest.read(x.in(), x.checks());
    List<Info> data = request.data();
    List<Info> directives = request.directives();
    if (data.isEmpty()) {
      throw BadRequest.param("nothing to log");
    }
    boolean once = false;
    for (Info d : directives) {
      switch (d.key()) {
        case PmixKeys.LOG_ONCE -> once = Values.bool(d);
        case PmixKeys.LOG_GENERATE_TIMESTAMP, PmixKeys.LOG_TIMESTAMP, PmixKeys.LOG_SOURCE -> {}
        default -> {
          if (d.isRequired()) {
            throw BadRequest.notSupported(d.key());
          }
        }
      }
    }
    List<Line> lines = lines(data);
    if (lines.isEmpty()) {
      throw BadRequest.notSupported("none of the log channels asked for");
    }
    Proc self = x.self();
    boolean application = !x.peer().role().isToolClass();
    List<Line> chosen = once ? lines.subList(0, 1) : lines;
    long bytes = 0;
    int channels = 0;
    for (Line l : chosen) {
      bytes += l.text.length();
      channels |= application ? channelOf(l) : 0;
    }
    if (!output.admitLog(self, channels, bytes)) {
      // Past the job's bound: refused and counted, never a log line per request.
      x.replyStatus(PmixStatus.ERR_OUT_OF_RESOURCE);
      return;
    }
    for (Line l : chosen) {
      deliver(self, application, l);
    }
    x.replyStatus(PmixStatus.SUCCESS);
  }

  private static int channelOf(Line l) {
    return switch (l.channel) {
      case STDERR -> OutputRouter.STDERR_CHANNEL;
      case STDOUT -> OutputRouter.STDOUT_CHANNEL;
      case SYSLOG -> 0;
    };
  }

  private static List<Line> lines(List<Info> data) throws BadRequest {
    List<Line> lines = new ArrayList<>(data.size());
    for (Info d : data) {
      switch (d.key()) {
        case PmixKeys.LOG_STDERR -> lines.add(new Line(Channel.STDERR, Values.text(d)));
        case PmixKeys.LOG_STDOUT -> lines.add(new Line(Channel.STDOUT, Values.text(d)));
        case PmixKeys.LOG_SYSLOG, PmixKeys.LOG_LOCAL_SYSLOG, PmixKeys.LOG_GLOBAL_SYSLOG ->
            lines.add(new Line(Channel.SYSLOG, Values.text(d)));
        case PmixKeys.LOG_MSG -> {
          if (d.value().type() != DataType.BYTE_OBJECT) {
            throw Values.wrongType(d, "a PMIX_BYTE_OBJECT");
          }
          String text = showHelpText(((ByteObject) d.value().data()).toByteArray());
          if (text == null) {
            throw BadRequest.param(d.key() + " is not Open MPI's help message");
          }
          lines.add(new Line(Channel.STDERR, text));
        }
        default -> {
          if (d.isRequired()) {
            throw BadRequest.notSupported(d.key());
          }
        }
      }
    }
    return lines;
  }

  private void deliver(Proc source, boolean application, Line l) {
    String text = l.text.endsWith("\n") ? l.text : l.text + "\n";
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    switch (l.channel) {
      case STDERR, STDOUT -> {
        int channel =
            l.channel == Channel.STDERR ? OutputRouter.STDERR_CHANNEL : OutputRouter.STDOUT_CHANNEL;
        if (application) {
          output.log(source, channel, bytes);
        } else {
          OutputRouter.toDvmLog(source, bytes);
        }
      }
      case SYSLOG ->
          PEER_LOG.log(
              System.Logger.Level.WARNING, "proc=" + source + " syslog=" + Json.quote(l.text));
    }
  }

  /**
   * The text of Open MPI 4.1's {@code pmix.log.msg}: four opal_dss items of a non-described buffer,
   * each a big-endian int32 count of 1 and the value (filename STRING, topic STRING, have-output
   * INT8, text STRING), a STRING being a big-endian int32 length with the NUL and the bytes
   * (docs/wireup.md §c.6). {@code null} when the blob is not laid out so.
   */
  static String showHelpText(byte[] blob) {
    ByteBuffer in = ByteBuffer.wrap(blob);
    try {
      dssString(in);
      dssString(in);
      if (in.getInt() != 1) {
        return null;
      }
      in.get();
      String text = dssString(in);
      return in.hasRemaining() ? null : text;
    } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
      return null;
    }
  }

  private static String dssString(ByteBuffer in) {
    if (in.getInt() != 1) {
      throw new IllegalArgumentException("an opal_dss item of more than one value");
    }
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("a string longer than the blob");
    }
    if (length == 0) {
      return "";
    }
    byte[] bytes = new byte[length];
    in.get(bytes);
    int end = bytes[length - 1] == 0 ? length - 1 : length;
    return new String(bytes, 0, end, StandardCharsets.UTF_8);
  }
}
