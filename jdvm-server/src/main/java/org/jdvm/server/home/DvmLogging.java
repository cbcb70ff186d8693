package org.jdvm.server.home;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Routes the DVM's {@link System.Logger} output (the JDK's logging facade, backed by
 * java.util.logging) to {@code dvm.log}, one line per record: time, level, component, then the
 * record's own {@code key=value} text. Warnings and errors also go to standard error when the DVM
 * runs in the foreground.
 */
public final class DvmLogging {
  private DvmLogging() {}

  /** One line per record; a stack trace, if any, follows indented. */
  static final class LineFormatter extends Formatter {
    @Override
    public String format(LogRecord r) {
      StringBuilder sb = new StringBuilder(160);
      sb.append(Instant.ofEpochMilli(r.getMillis()))
          .append(' ')
          .append(r.getLevel().getName())
          .append(' ')
          .append(shortName(r.getLoggerName()))
          .append(' ')
          .append(formatMessage(r))
          .append('\n');
      if (r.getThrown() != null) {
        sb.append("  ").append(r.getThrown()).append('\n');
        for (StackTraceElement e : r.getThrown().getStackTrace()) {
          sb.append("    at ").append(e).append('\n');
        }
      }
      return sb.toString();
    }

    private static String shortName(String logger) {
      if (logger == null) {
        return "-";
      }
      int dot = logger.lastIndexOf('.');
      return dot < 0 ? logger : logger.substring(dot + 1);
    }
  }

  /**
   * Sends jdvm's log records to {@code log}.
   *
   * @param toStderr also print warnings and errors on standard error
   */
  public static void configure(Path log, boolean toStderr) throws IOException {
    Logger root = Logger.getLogger("org.jdvm");
    root.setUseParentHandlers(false);
    for (Handler h : root.getHandlers()) {
      root.removeHandler(h);
      h.close();
    }
    FileHandler file = new FileHandler(log.toString(), 64 << 20, 1, true);
    file.setFormatter(new LineFormatter());
    file.setLevel(Level.INFO);
    root.addHandler(file);
    if (toStderr) {
      StreamHandler err =
          new StreamHandler(System.err, new LineFormatter()) {
            @Override
            public synchronized void publish(LogRecord record) {
              super.publish(record);
              flush();
            }
          };
      err.setLevel(Level.WARNING);
      root.addHandler(err);
    }
    root.setLevel(Level.INFO);
  }

  /** Quiet logging for embedded use (tests, benchmarks): warnings and errors to stderr only. */
  public static void quiet() {
    Logger root = Logger.getLogger("org.jdvm");
    root.setLevel(Level.WARNING);
  }
}
