package org.jdvm.client;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * How the output of a job this client spawned is shown, from the spawn's own attributes, as libpmix
 * 4.2.2 shows a tool the output of its spawn ({@code pmix_iof_write_output}, docs/cli.md "Output"):
 * the requester's library formats, the DVM only cuts the output at newlines. Each line, at its
 * start, gets:
 *
 * <ul>
 *   <li>{@code PMIX_IOF_TIMESTAMP_OUTPUT}: {@code [ctime]} when a tag follows, else {@code
 *       [ctime]<stdout>: };
 *   <li>{@code PMIX_IOF_TAG_OUTPUT}: {@code [JOB,RANK]<stdout>: }, JOB the namespace after its last
 *       {@code @} (all of it when it has none); {@code PMIX_IOF_TAG_FULLNAME_OUTPUT}: {@code
 *       [NSPACE,RANK]<stdout>: }; {@code PMIX_IOF_RANK_OUTPUT}: {@code [RANK]<stdout>: } ({@code
 *       <stderr>} for stderr);
 *   <li>{@code jdvm.iof.label} (srun's {@code -l}): {@code RANK: } first, the rank right-aligned to
 *       the digits of the job's last rank, as srun aligns it.
 * </ul>
 *
 * {@code PMIX_IOF_XML_OUTPUT} and {@code PMIX_IOF_TAG_DETAILED_OUTPUT} are refused ({@code
 * PMIX_ERR_NOT_SUPPORTED}): nobody asked for XML, and a detailed tag needs each process's host and
 * pid, which this client does not fetch. Used on the client's delivery thread only.
 */
final class OutputFormat {
  static final DateTimeFormatter CTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

  private final boolean tag;
  private final boolean fullname;
  private final boolean rank;
  private final boolean timestamp;
  private final int labelWidth;
  private final Supplier<ZonedDateTime> clock;

  /** (rank, stderr) sources in the middle of a line. */
  private final Set<Long> midLine = new HashSet<>();

  private OutputFormat(
      boolean tag,
      boolean fullname,
      boolean rank,
      boolean timestamp,
      int labelWidth,
      Supplier<ZonedDateTime> clock) {
    this.tag = tag;
    this.fullname = fullname;
    this.rank = rank;
    this.timestamp = timestamp;
    this.labelWidth = labelWidth;
    this.clock = clock;
  }

  /** {@code --tag-output}'s alone: how {@code jdvm output} labels a replayed job's lines. */
  static OutputFormat tagged() {
    return new OutputFormat(true, false, false, false, 0, ZonedDateTime::now);
  }

  /** The format a spawn asks for; {@code null} when it asks for none. */
  static OutputFormat of(SpawnRequest request) throws PmixException {
    return of(request, ZonedDateTime::now);
  }

  static OutputFormat of(SpawnRequest request, Supplier<ZonedDateTime> clock) throws PmixException {
    boolean tag = false;
    boolean fullname = false;
    boolean rank = false;
    boolean timestamp = false;
    boolean label = false;
    for (Info i : request.infos()) {
      boolean on = i.value().type() == DataType.BOOL && i.value().asBoolean();
      switch (i.key()) {
        case PmixKeys.IOF_TAG_OUTPUT -> tag = on;
        case PmixKeys.IOF_TAG_FULLNAME_OUTPUT -> fullname = on;
        case PmixKeys.IOF_RANK_OUTPUT -> rank = on;
        case PmixKeys.IOF_TIMESTAMP_OUTPUT -> timestamp = on;
        case JdvmProtocol.IOF_LABEL -> label = on;
        case PmixKeys.IOF_XML_OUTPUT, PmixKeys.IOF_TAG_DETAILED_OUTPUT -> {
          if (on) {
            throw new PmixException(
                PmixStatus.ERR_NOT_SUPPORTED,
                i.key() + " is not supported by the Java client (see docs/cli.md \"Output\")");
          }
        }
        default -> {}
      }
    }
    if (!(tag || fullname || rank || timestamp || label)) {
      return null;
    }
    return new OutputFormat(
        tag, fullname, rank, timestamp, label ? width(procs(request.apps())) : 0, clock);
  }

  private static int procs(List<App> apps) {
    int n = 0;
    for (App a : apps) {
      n += a.maxprocs();
    }
    return n;
  }

  /** srun's width of a task id: the digits of the last one. */
  static int width(int tasks) {
    int w = 1;
    for (int n = (tasks - 1) / 10; n > 0; n /= 10) {
      w++;
    }
    return w;
  }

  /** A chunk of {@code source}'s output, with each line that starts in it prefixed. */
  byte[] apply(Proc source, boolean stderr, byte[] bytes) {
    long key = ((long) source.rank() << 1) | (stderr ? 1 : 0);
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 64);
    boolean mid = midLine.contains(key);
    byte[] prefix = null;
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (!mid) {
        if (prefix == null) {
          prefix = prefix(source, stderr);
        }
        out.write(bytes, start, i - start);
        out.writeBytes(prefix);
        start = i;
        mid = true;
      }
      if (bytes[i] == '\n') {
        mid = false;
      }
    }
    out.write(bytes, start, bytes.length - start);
    if (mid) {
      midLine.add(key);
    } else {
      midLine.remove(key);
    }
    return out.toByteArray();
  }

  /** The prefix of a line, as libpmix 4.2.2's {@code write_output_line} builds it. */
  private byte[] prefix(Proc source, boolean stderr) {
    String suffix = stderr ? "stderr" : "stdout";
    StringBuilder b = new StringBuilder();
    if (labelWidth > 0) {
      b.append(String.format("%" + labelWidth + "d: ", source.rank()));
    }
    if (timestamp) {
      b.append('[').append(CTIME.format(clock.get())).append(']');
      if (!tag && !rank) {
        b.append('<').append(suffix).append(">: ");
      }
    }
    String r = Integer.toString(source.rank());
    if (tag) {
      String ns = source.nspace();
      String job = ns.substring(ns.lastIndexOf('@') + 1);
      b.append('[').append(job).append(',').append(r).append("]<").append(suffix).append(">: ");
    } else if (fullname) {
      b.append('[').append(source.nspace()).append(',').append(r);
      b.append("]<").append(suffix).append(">: ");
    } else if (rank) {
      b.append('[').append(r).append("]<").append(suffix).append(">: ");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }
}
