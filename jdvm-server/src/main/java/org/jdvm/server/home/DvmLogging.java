package org.jdvm.server.home;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;
import java.util.logging.ErrorManager;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;
import org.jdvm.endpoint.deliver.OutputRouter;

/**
 * Routes the DVM's {@link System.Logger} output (the JDK's logging facade, backed by
 * java.util.logging) to {@code dvm.log}, one line per record: time, level, component, then the
 * record's own {@code key=value} text. Warnings and errors also go to standard error when the DVM
 * runs in the foreground. The file is private to the DVM's user and bounded ({@link RotatingLog}).
 * What peers log ({@link org.jdvm.endpoint.deliver.OutputRouter#PEER_LOGGER}: ranks' {@code
 * PMIx_Log} text nobody receives, their syslog lines) goes to a bounded file of its own, {@code
 * peers.log}, and not to {@code dvm.log} nor standard error, so that a rank's logging can never
 * push the DVM's own lines out of their history. A detached DVM's standard output and error ({@code
 * dvm.out}) take at most {@link #DVM_OUT_BYTES} ({@link #boundConsole}).
 */
public final class DvmLogging {
  private DvmLogging() {}

  /**
   * The log manager of a process that runs a DVM ({@link #useOwnManager}): the JDK's resets the
   * logging configuration, closing every handler, from a shutdown hook of its own that runs beside
   * the DVM's, so the DVM's last lines as it stops (on SIGTERM, or the SIGTERM the JVM sends itself
   * on OutOfMemoryError) would be lost. This one does not reset once the DVM's log is configured.
   */
  public static final class Manager extends java.util.logging.LogManager {
    @Override
    public void reset() {
      if (!configured) {
        super.reset();
      }
    }
  }

  private static volatile boolean configured;

  /**
   * Makes {@link Manager} the process's log manager; effective only before anything logged (the JDK
   * reads the property once), so a command that runs a DVM calls it first.
   */
  public static void useOwnManager() {
    System.setProperty("java.util.logging.manager", Manager.class.getName());
  }

  /** Bytes one log file holds before it is rotated. */
  static final long FILE_BYTES = 16L << 20;

  /** Rotated files kept besides the live one: {@code dvm.log.1} (the newest) .. {@code .3}. */
  static final int KEPT = 3;

  /** The file of what peers log, beside {@code dvm.log}. */
  public static final String PEER_LOG = "peers.log";

  /** Bytes {@code peers.log} holds before it is rotated ({@code peers.log.1}, the one kept). */
  static final long PEER_FILE_BYTES = 4L << 20;

  /** Rotated files of {@code peers.log} kept besides the live one. */
  static final int PEER_KEPT = 1;

  /** What a detached DVM writes to its standard output and error ({@code dvm.out}), in all. */
  public static final long DVM_OUT_BYTES = 1L << 20;

  /** Held here: java.util.logging keeps only weak references to its loggers. */
  private static final Logger PEERS = Logger.getLogger(OutputRouter.PEER_LOGGER);

  /**
   * The DVM's log file: readable by the DVM's user only ({@code 0600}), opened without following a
   * symbolic link, and bounded: past {@code maxBytes} the file becomes {@code <log>.1} (the older
   * ones move up, the oldest goes) and a new one starts, so the log never holds more than {@code
   * (kept + 1) * maxBytes} and the latest lines, the last episode's included, are always kept.
   */
  static final class RotatingLog extends Handler {
    private final Path log;
    private final long maxBytes;
    private final int kept;
    private OutputStream out;
    private long written;
    private boolean dirty;

    /** How long an INFO line may wait in the buffer before it is written out. */
    static final long FLUSH_MS = 100;

    RotatingLog(Path log, long maxBytes, int kept) throws IOException {
      this.log = log;
      this.maxBytes = maxBytes;
      this.kept = kept;
      open();
      Thread.ofVirtual().name("jdvm-log-flush").start(this::flushNowAndThen);
    }

    /**
     * Writes out, every {@link #FLUSH_MS} ms, the INFO lines that arrived meanwhile: a write per
     * line was a tenth of the controller's CPU under load (three lines a job). A warning or error
     * is written at once; closing writes out the rest.
     */
    private void flushNowAndThen() {
      try {
        while (true) {
          Thread.sleep(FLUSH_MS);
          synchronized (this) {
            if (out == null) {
              return;
            }
            if (dirty) {
              flush();
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void open() throws IOException {
      if (Files.isSymbolicLink(log)) {
        Files.delete(log); // a link where the log goes is never followed
      }
      FileChannel ch =
          FileChannel.open(
              log,
              Set.of(
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.APPEND,
                  LinkOption.NOFOLLOW_LINKS),
              PosixFilePermissions.asFileAttribute(PRIVATE));
      Files.setPosixFilePermissions(log, PRIVATE);
      written = ch.size();
      out = new BufferedOutputStream(Channels.newOutputStream(ch), 8192);
    }

    private void rotate() throws IOException {
      out.close();
      for (int i = kept; i >= 1; i--) {
        Path from = i == 1 ? log : rotated(i - 1);
        if (Files.exists(from, LinkOption.NOFOLLOW_LINKS)) {
          Files.move(from, rotated(i), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      open();
    }

    private Path rotated(int i) {
      return log.resolveSibling(log.getFileName() + "." + i);
    }

    @Override
    public synchronized void publish(LogRecord record) {
      if (!isLoggable(record) || out == null) {
        return;
      }
      try {
        byte[] line = getFormatter().format(record).getBytes(StandardCharsets.UTF_8);
        if (written > 0 && written + line.length > maxBytes) {
          rotate();
        }
        out.write(line);
        written += line.length;
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
          out.flush();
          dirty = false;
        } else {
          dirty = true;
        }
      } catch (IOException | RuntimeException e) {
        reportError(null, e instanceof Exception x ? x : null, ErrorManager.WRITE_FAILURE);
      }
    }

    @Override
    public synchronized void flush() {
      try {
        if (out != null) {
          out.flush();
          dirty = false;
        }
      } catch (IOException e) {
        reportError(null, e, ErrorManager.FLUSH_FAILURE);
      }
    }

    @Override
    public synchronized void close() {
      try {
        if (out != null) {
          out.close();
        }
      } catch (IOException e) {
        reportError(null, e, ErrorManager.CLOSE_FAILURE);
      }
      out = null;
    }
  }

  private static final Set<PosixFilePermission> PRIVATE =
      PosixFilePermissions.fromString("rw-------");

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
    RotatingLog file = new RotatingLog(log, FILE_BYTES, KEPT);
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
    configurePeers(log.resolveSibling(PEER_LOG));
    configured = true;
  }

  /** What peers log goes to {@code file}, bounded, and nowhere else. */
  private static void configurePeers(Path file) throws IOException {
    PEERS.setUseParentHandlers(false);
    for (Handler h : PEERS.getHandlers()) {
      PEERS.removeHandler(h);
      h.close();
    }
    RotatingLog peers = new RotatingLog(file, PEER_FILE_BYTES, PEER_KEPT);
    peers.setFormatter(new LineFormatter());
    peers.setLevel(Level.INFO);
    PEERS.addHandler(peers);
    PEERS.setLevel(Level.INFO);
  }

  /**
   * Bounds what this process writes through {@link System#out} and {@link System#err} together to
   * {@code max} bytes, then one line saying the rest is dropped: a detached DVM's are its {@code
   * dvm.out}, which nothing rotates. (What the JVM itself writes to the descriptors as it crashes
   * does not pass through them; it is a few KiB.)
   */
  public static void boundConsole(long max) {
    BoundedConsole console =
        new BoundedConsole(
            new java.io.FileOutputStream(java.io.FileDescriptor.out),
            new java.io.FileOutputStream(java.io.FileDescriptor.err),
            max);
    System.setOut(new java.io.PrintStream(console.out(), true, StandardCharsets.UTF_8));
    System.setErr(new java.io.PrintStream(console.err(), true, StandardCharsets.UTF_8));
  }

  /** Standard output and error that share one budget of bytes. */
  static final class BoundedConsole {
    private final OutputStream out;
    private final OutputStream err;
    private final long max;
    private long written;
    private boolean said;

    BoundedConsole(OutputStream out, OutputStream err, long max) {
      this.out = out;
      this.err = err;
      this.max = max;
    }

    OutputStream out() {
      return stream(out);
    }

    OutputStream err() {
      return stream(err);
    }

    private OutputStream stream(OutputStream to) {
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          BoundedConsole.this.write(to, b, off, len);
        }

        @Override
        public void flush() throws IOException {
          to.flush();
        }
      };
    }

    private synchronized void write(OutputStream to, byte[] b, int off, int len)
        throws IOException {
      int n = (int) Math.max(0, Math.min(len, max - written));
      if (n > 0) {
        to.write(b, off, n);
        written += n;
      }
      if (n < len && !said) {
        said = true;
        to.write(
            ("\njdvm: more output dropped: this file is bounded to " + max + " bytes\n")
                .getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /** Writes out what jdvm's log handlers hold (INFO lines wait up to {@code FLUSH_MS} ms). */
  public static void flush() {
    for (Handler h : Logger.getLogger("org.jdvm").getHandlers()) {
      h.flush();
    }
  }

  /** Quiet logging for embedded use (tests, benchmarks): warnings and errors to stderr only. */
  public static void quiet() {
    Logger root = Logger.getLogger("org.jdvm");
    root.setLevel(Level.WARNING);
  }
}
