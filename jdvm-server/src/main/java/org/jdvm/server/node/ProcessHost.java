package org.jdvm.server.node;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdvm.pmix.Signal;

/**
 * Starts, signals and reaps the real processes of this host (the "node agent" of architecture.md
 * §5).
 *
 * <p>Each process is started as the leader of its own process group and session ({@code setsid}),
 * so a signal reaches whatever the process started too, and with a parent-death signal ({@code
 * setpriv --pdeathsig KILL}), so that if the controller is killed outright its processes die with
 * it instead of becoming orphans. Both wrappers exec, so the pid handed back is the process's own.
 * When a wrapper is missing on this host, processes start without it and {@link #isolation()} says
 * so.
 *
 * <p>The parent-death signal fires when the <em>thread</em> that started the process ends, so every
 * start happens on one of a fixed set of long-lived platform threads, never on a virtual thread
 * whose carrier could retire.
 */
public final class ProcessHost implements AutoCloseable {
  /** How long a process's output may keep flowing after it exited (descendants holding a pipe). */
  private static final long DRAIN_AFTER_EXIT_MS = 500;

  private static final String SETSID = "/usr/bin/setsid";
  private static final String SETPRIV = "/usr/bin/setpriv";
  private static final File DEV_NULL = new File("/dev/null");

  private final List<String> prefix;
  private final boolean processGroups;
  private final ExecutorService launchers;

  /** A host using the wrappers this machine has. */
  public ProcessHost() {
    this(4);
  }

  ProcessHost(int launcherThreads) {
    List<String> p = new ArrayList<>();
    if (works(SETPRIV, "--pdeathsig", "KILL", "/bin/true")) {
      p.addAll(List.of(SETPRIV, "--pdeathsig", "KILL"));
    }
    processGroups = works(SETSID, "/bin/true");
    if (processGroups) {
      p.add(SETSID);
    }
    prefix = List.copyOf(p);
    AtomicInteger n = new AtomicInteger();
    launchers =
        Executors.newFixedThreadPool(
            launcherThreads,
            r -> {
              Thread t = new Thread(r, "jdvm-launcher-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** A one-line description of how processes are isolated on this host, for the log. */
  public String isolation() {
    return "processGroups=" + processGroups + " parentDeathSignal=" + prefix.contains(SETPRIV);
  }

  /**
   * Starts a process; returns once it runs (or could not start).
   *
   * @throws LaunchException if the command does not exist, is not executable, or the OS refuses
   */
  public RunningProc start(LaunchRequest request, ProcListener listener) throws LaunchException {
    Path exe = resolve(request);
    if (exe == null) {
      throw new LaunchException(
          LaunchException.Kind.EXE_NOT_FOUND,
          "command not found or not executable: " + request.argv().get(0),
          null);
    }
    Future<Process> started = launchers.submit(() -> startNow(exe, request));
    Process process;
    try {
      process = started.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new LaunchException(
          LaunchException.Kind.START_REFUSED,
          "cannot start " + request.argv().get(0) + ": " + cause.getMessage(),
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LaunchException(
          LaunchException.Kind.INTERRUPTED,
          "interrupted while starting " + request.argv().get(0),
          e);
    }
    StdinPipe stdin =
        request.stdin()
            ? new StdinPipe(
                process.getOutputStream(), request.argv().get(0) + "[" + process.pid() + "]")
            : null;
    RunningProc proc = new RunningProc(process, processGroups, stdin);
    watch(process, stdin, listener);
    return proc;
  }

  private Process startNow(Path exe, LaunchRequest request) throws IOException {
    List<String> command = new ArrayList<>(prefix.size() + request.argv().size());
    command.addAll(prefix);
    command.add(exe.toString());
    command.addAll(request.argv().subList(1, request.argv().size()));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().putAll(request.environment());
    if (request.workingDirectory() != null) {
      pb.directory(request.workingDirectory().toFile());
    }
    if (!request.stdin()) {
      pb.redirectInput(DEV_NULL);
    }
    return pb.start();
  }

  /**
   * Resolves the command the way a shell would with the process's own PATH: a name containing a
   * slash is taken relative to the working directory; a bare name is looked up on PATH.
   */
  static Path resolve(LaunchRequest request) {
    String cmd = request.argv().get(0);
    Path cwd = request.workingDirectory() != null ? request.workingDirectory() : Path.of("");
    if (cmd.contains("/")) {
      Path p = cwd.resolve(cmd);
      return isExecutableFile(p) ? p.toAbsolutePath() : null;
    }
    String path = request.environment().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
    for (String dir : path.split(":")) {
      Path p = cwd.resolve(dir.isEmpty() ? "." : dir).resolve(cmd);
      if (isExecutableFile(p)) {
        return p.toAbsolutePath();
      }
    }
    return null;
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }

  /**
   * Pumps stdout and stderr, then reports the exit once both are drained (bounded); closes the
   * stdin pipe, if any, at the exit.
   */
  private static void watch(Process process, StdinPipe stdin, ProcListener listener) {
    Thread out = Thread.ofVirtual().start(() -> pump(process.getInputStream(), listener, true));
    Thread err = Thread.ofVirtual().start(() -> pump(process.getErrorStream(), listener, false));
    Thread.ofVirtual()
        .start(
            () -> {
              int status = waitUninterruptibly(process);
              if (stdin != null) {
                stdin.processExited();
              }
              joinQuietly(out, DRAIN_AFTER_EXIT_MS);
              joinQuietly(err, DRAIN_AFTER_EXIT_MS);
              listener.exited(status);
            });
  }

  private static void pump(InputStream in, ProcListener listener, boolean stdout) {
    ProcListener.Stream stream = stdout ? ProcListener.Stream.STDOUT : ProcListener.Stream.STDERR;
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) > 0) {
        byte[] chunk = new byte[n];
        System.arraycopy(buf, 0, chunk, 0, n);
        listener.output(stream, chunk);
      }
    } catch (IOException e) {
      // The pipe closed under us (the process is gone); the exit report follows.
    }
  }

  private static int waitUninterruptibly(Process process) {
    while (true) {
      try {
        return process.waitFor();
      } catch (InterruptedException e) {
        // Reaping must finish: a lost exit would leave a job running forever in the core.
      }
    }
  }

  private static void joinQuietly(Thread t, long millis) {
    try {
      t.join(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends a signal to each process (to its whole group when processes run in their own groups).
   * Processes that are already gone are skipped silently.
   */
  public void signal(Collection<RunningProc> procs, int signal) {
    List<String> targets = new ArrayList<>();
    for (RunningProc p : procs) {
      if (p.isAlive()) {
        // Until the wrapper's setsid has run the group does not exist and a signal to it alone
        // is lost: then the process is signalled too (and the group, in case setsid runs now).
        if (processGroups) {
          targets.add("-" + p.pid());
        }
        if (!processGroups || processGroupOf(p.pid()) != p.pid()) {
          targets.add(Long.toString(p.pid()));
        }
      }
    }
    if (targets.isEmpty()) {
      return;
    }
    List<String> cmd = new ArrayList<>(List.of("/bin/kill", "-" + signal, "--"));
    cmd.addAll(targets);
    runQuietly(cmd);
  }

  /** The process group of a process, from {@code /proc/<pid>/stat}; -1 if it cannot be read. */
  static long processGroupOf(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so parse after the
      // last ')'.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
      return Long.parseLong(f[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Ends processes for good: TERM (and CONT, so a stopped process can act on it) to each group,
   * then KILL to whatever is left after {@code graceMillis}. Returns when all have exited or the
   * KILL was sent.
   */
  public void terminate(Collection<RunningProc> procs, long graceMillis) {
    signal(procs, Signal.TERM.number());
    signal(procs, Signal.CONT.number());
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
    for (RunningProc p : procs) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        p.awaitExit(left);
      }
    }
    List<RunningProc> stubborn = procs.stream().filter(RunningProc::isAlive).toList();
    if (!stubborn.isEmpty()) {
      signal(stubborn, Signal.KILL.number());
      for (RunningProc p : stubborn) {
        p.killDirectly();
      }
    }
  }

  private static void runQuietly(List<String> cmd) {
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + cmd.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean works(String exe, String... args) {
    if (!Files.isExecutable(Path.of(exe))) {
      return false;
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(exe);
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    launchers.shutdown();
    try {
      launchers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A started process. */
  public static final class RunningProc {
    private final Process process;
    private final boolean ownGroup;
    private final StdinPipe stdin;

    RunningProc(Process process, boolean ownGroup, StdinPipe stdin) {
      this.process = process;
      this.ownGroup = ownGroup;
      this.stdin = stdin;
    }

    /** Its stdin pipe, or {@code null} when it reads {@code /dev/null}. */
    public StdinPipe stdin() {
      return stdin;
    }

    public long pid() {
      return process.pid();
    }

    public boolean isAlive() {
      return process.isAlive();
    }

    /** Whether the process leads its own process group (signals reach its descendants). */
    public boolean ownGroup() {
      return ownGroup;
    }

    /** Waits at most {@code nanos} for the process to exit; true if it has. */
    public boolean awaitExit(long nanos) {
      try {
        return process.waitFor(nanos, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !process.isAlive();
      }
    }

    void killDirectly() {
      process.destroyForcibly();
    }

    /** For tests: waits for the exit and returns the status, bounded. */
    public int waitFor(long millis) throws TimeoutException, InterruptedException {
      if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
        throw new TimeoutException("pid " + pid() + " still running after " + millis + " ms");
      }
      return process.exitValue();
    }
  }
}
