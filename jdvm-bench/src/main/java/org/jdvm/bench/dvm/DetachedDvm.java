package org.jdvm.bench.dvm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.client.Contact;
import org.jdvm.client.PmixException;

/**
 * The bench DVM as users run it: {@code jdvm start --detach} in a child JVM of this class path
 * ({@link DvmBench.Settings#jdvm}; it starts the DVM's own process with the flags it always gets),
 * ended by {@code jdvm stop}. Whatever ends the bench — a failed measure, Ctrl-C, a SIGTERM — stops
 * the DVM it started: {@link #close} when the bench leaves its measures, by a return or an
 * exception, and a shutdown hook until then. When {@code jdvm stop} fails, the DVM's process and
 * what it started are killed.
 */
final class DetachedDvm implements AutoCloseable {
  private final List<String> jdvm;
  private final Path home;
  private final PrintStream progress;
  private final Thread hook = new Thread(this::stop, "jdvm-bench-stop");

  /** How long {@code jdvm start} and {@code jdvm stop} may take. */
  private long waitSeconds = 90;

  /** The DVM's process once its contact file names it, for a stop that fails. */
  private volatile ProcessHandle process;

  private DetachedDvm(List<String> jdvm, Path home, PrintStream progress) {
    this.jdvm = List.copyOf(jdvm);
    this.home = home;
    this.progress = progress;
  }

  /** Starts the bench DVM of {@code s} in {@code home}; throws, with none left, if it cannot. */
  static DetachedDvm start(DvmBench.Settings s, Path home, PrintStream progress)
      throws IOException, InterruptedException {
    return start(
        s.jdvm(),
        home,
        List.of("--nodes", "4", "--slots", "16", "--spare", "8", "--fsync", s.fsync()),
        progress);
  }

  /** Starts a bench DVM with {@code options} after {@code start --detach --dir --name}. */
  static DetachedDvm start(List<String> jdvm, Path home, List<String> options, PrintStream progress)
      throws IOException, InterruptedException {
    return start(jdvm, home, options, 90, progress);
  }

  /** The same, {@code jdvm start} and {@code jdvm stop} each given {@code waitSeconds}. */
  static DetachedDvm start(
      List<String> jdvm, Path home, List<String> options, long waitSeconds, PrintStream progress)
      throws IOException, InterruptedException {
    DetachedDvm dvm = new DetachedDvm(jdvm, home, progress);
    dvm.waitSeconds = waitSeconds;
    List<String> start =
        new ArrayList<>(List.of("start", "--detach", "--dir", home.toString(), "--name", "bench"));
    start.addAll(options);
    Runtime.getRuntime().addShutdownHook(dvm.hook);
    boolean started = false;
    try {
      started = dvm.jdvm(start) == 0;
    } finally {
      dvm.process = dvm.fromContact();
      if (!started) {
        dvm.close(); // a start that timed out or was interrupted may have left a DVM behind
      }
    }
    if (!started) {
      throw new IOException("cannot start the bench DVM; see " + home.resolve("dvm.out"));
    }
    return dvm;
  }

  /** The DVM's process, once started. */
  ProcessHandle process() {
    return process;
  }

  /** The ordered stop, in place of the shutdown hook. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      return; // the JVM is exiting: the hook stops the DVM
    }
    stop();
  }

  /** The DVM's process, as its contact file names it; null without one. */
  private ProcessHandle fromContact() {
    try {
      Long pid = Contact.fromFile(home.resolve(Contact.CONTACT_FILE)).pid();
      return pid == null ? null : ProcessHandle.of(pid).orElse(null);
    } catch (PmixException | RuntimeException e) {
      return null; // none, or not readable: a DVM that did not start
    }
  }

  /**
   * {@code jdvm stop} on the bench's directory (a DVM already gone is not an error); when that
   * fails, the DVM and what it started are killed. An interrupt the bench got does not cut the stop
   * short: it is put back afterwards.
   */
  private void stop() {
    boolean interrupted = Thread.interrupted();
    int status = -1;
    try {
      status = jdvm(List.of("stop", "--dir", home.toString()));
    } catch (IOException e) {
      progress.println("jdvm bench: could not run 'jdvm stop' in " + home + ": " + e.getMessage());
    } catch (InterruptedException e) {
      interrupted = true;
    }
    ProcessHandle dvm = process;
    if (status != 0 && dvm != null && dvm.isAlive()) {
      progress.println(
          "jdvm bench: 'jdvm stop' "
              + (status < 0 ? "did not end" : "exited " + status)
              + "; killing the bench DVM (pid "
              + dvm.pid()
              + ")");
      dvm.descendants().forEach(ProcessHandle::destroyForcibly);
      dvm.destroyForcibly();
      try {
        dvm.onExit().get(10, TimeUnit.SECONDS); // a kill takes effect a moment later
      } catch (ExecutionException | TimeoutException e) {
        progress.println("jdvm bench: the bench DVM (pid " + dvm.pid() + ") has not ended yet");
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code jdvm ARGS} in a child JVM, its output discarded; its status, -1 if it did not end. */
  private int jdvm(List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(jdvm);
    cmd.addAll(args);
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      return p.waitFor(waitSeconds, TimeUnit.SECONDS) ? p.exitValue() : -1;
    } finally {
      p.destroyForcibly();
    }
  }
}
