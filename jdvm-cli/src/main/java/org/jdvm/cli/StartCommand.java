package org.jdvm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.Contact;
import org.jdvm.client.PmixException;
import org.jdvm.core.Feature;
import org.jdvm.core.Limits;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.DvmServer;
import org.jdvm.server.home.DvmHome;
import org.jdvm.server.home.DvmLogging;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm start}: a DVM on this machine, the embedded default (docs/cli.md). In the foreground
 * it runs until stopped or interrupted; with {@code --detach} it starts itself again as a daemon in
 * its own session and returns once that DVM accepts connections.
 */
@Command(
    description = "Start a DVM on this machine (virtual nodes running local processes).",
    mixinStandardHelpOptions = true)
public final class StartCommand implements Callable<Integer> {
  @Option(names = "--nodes", paramLabel = "N", description = "Start-up nodes (default 4).")
  int nodes = 4;

  @Option(names = "--slots", paramLabel = "S", description = "Slots per node (default 2).")
  int slots = 2;

  @Option(
      names = "--spare",
      paramLabel = "M",
      description = "Spare nodes the embedded scheduler grants from (default 8).")
  int spare = 8;

  @Option(names = "--scheduler", paramLabel = "KIND", description = "embedded (default) or none.")
  String scheduler = "embedded";

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "The DVM's directory (default ~/.jdvm).")
  Path dir;

  @Option(names = "--detach", description = "Run in the background; return once it is ready.")
  boolean detach;

  @Option(
      names = "--without",
      paramLabel = "LIST",
      split = ",",
      description =
          "Run without these attributes: target, share, inheritance, warn-timeout, spawn-target.")
  List<String> without = new ArrayList<>();

  @Option(
      names = "--limit",
      paramLabel = "NAME=N",
      description =
          "Set one of the core's limits (repeatable): procs-per-spawn, live-procs, apps-per-spawn,"
              + " nodes-in-dvm, nodes-per-request, live-allocations, pending-asks-per-requester.")
  List<String> limits = new ArrayList<>();

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "The DVM's name (default jdvm-<pid>).")
  String name;

  PrintStream out = System.out;
  PrintStream err = System.err;

  @Override
  public Integer call() {
    DvmConfig config;
    try {
      config = config();
    } catch (IllegalArgumentException e) {
      err.println("jdvm start: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    return detach ? detach(config) : foreground(config);
  }

  DvmConfig config() {
    if (nodes < 1 || slots < 1 || spare < 0) {
      throw new IllegalArgumentException(
          "--nodes and --slots must be at least 1, --spare at least 0");
    }
    DvmConfig.SchedulerKind kind =
        switch (scheduler) {
          case "embedded" -> DvmConfig.SchedulerKind.EMBEDDED;
          case "none" -> DvmConfig.SchedulerKind.NONE;
          default -> throw new IllegalArgumentException("--scheduler takes embedded or none");
        };
    Set<Feature> disabled = EnumSet.noneOf(Feature.class);
    for (String w : without) {
      try {
        disabled.add(Feature.valueOf(w.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--without takes target, share, inheritance, warn-timeout, spawn-target; not '"
                + w
                + "'");
      }
    }
    if (dir != null && dir.toString().isBlank()) {
      throw new IllegalArgumentException("--dir must name a directory");
    }
    Path home = dir != null ? dir : Contact.defaultDir();
    String n = name != null ? name : "jdvm-" + ProcessHandle.current().pid();
    Limits limits = limits();
    if (nodes > limits.nodesInDvm()) {
      // The start-up pool counts against the DVM's own bound on nodes, like every other node.
      throw new IllegalArgumentException(
          "--nodes " + nodes + " is above the DVM's limit nodes-in-dvm=" + limits.nodesInDvm());
    }
    return DvmConfig.embedded(
            n, nodes, slots, kind == DvmConfig.SchedulerKind.NONE ? 0 : spare, home)
        .withScheduler(kind)
        .without(disabled)
        .limitedBy(limits);
  }

  /** {@code --limit NAME=N} applied, in order, over the defaults. */
  private Limits limits() {
    Limits l = Limits.DEFAULT;
    for (String entry : limits) {
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("--limit takes NAME=N, not '" + entry + "'");
      }
      int value;
      try {
        value = Integer.parseInt(entry.substring(eq + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--limit " + entry + ": N must be a number");
      }
      l = l.with(entry.substring(0, eq).trim(), value);
    }
    return l;
  }

  private int foreground(DvmConfig config) {
    DvmServer server;
    DvmLogging.useOwnManager(); // before anything logs: the last lines survive a SIGTERM
    try {
      DvmHome.prepare(config.home());
      DvmLogging.configure(config.home().resolve(DvmHome.LOG), true);
      server = DvmServer.start(config);
    } catch (IllegalStateException e) {
      err.println("jdvm start: " + e.getMessage());
      return Main.EXIT_FAILURE;
    } catch (IOException e) {
      err.println("jdvm start: cannot start the DVM in " + config.home() + ": " + e.getMessage());
      return Main.EXIT_FAILURE;
    }
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(server::close));
    // Any throwable no thread caught ends the DVM (DvmServer#fail), never a zombie.
    Thread.setDefaultUncaughtExceptionHandler((thread, t) -> server.fail(t));
    describe(config, server.endpoint().uri());
    out.flush();
    try {
      long failedAt = 0;
      while (!server.awaitStop(500)) {
        if (server.failure() != null) {
          failedAt = failedAt == 0 ? System.nanoTime() : failedAt;
          if (System.nanoTime() - failedAt > TimeUnit.SECONDS.toNanos(FAIL_STOP_SECONDS)) {
            err.println("jdvm start: the DVM failed and did not stop in time; exiting");
            Runtime.getRuntime().halt(Main.EXIT_FAILURE);
          }
        }
      }
    } catch (InterruptedException e) {
      server.close();
    }
    if (server.failure() != null) {
      err.println(
          "jdvm start: the DVM failed ("
              + server.failure()
              + ") and stopped; see "
              + config.home().resolve(DvmHome.LOG));
      return Main.EXIT_FAILURE;
    }
    return Main.EXIT_OK;
  }

  /**
   * What the JVM of a DVM does on its first OutOfMemoryError, whichever thread it hits: stop the
   * way SIGTERM stops it, ordered (every job ended, the contact file removed, a last log line),
   * rather than go on half-working. The launcher passes the same option.
   */
  static final String ON_OUT_OF_MEMORY = "-XX:OnOutOfMemoryError=kill -TERM %p";

  /** Whether a DVM holds the directory's lock (its contact file may not be written yet). */
  private static boolean busy(Path home) {
    Path lock = home.resolve("dvm.lock");
    if (!Files.exists(lock, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    try (java.nio.channels.FileChannel ch =
        java.nio.channels.FileChannel.open(
            lock,
            java.nio.file.StandardOpenOption.WRITE,
            java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      java.nio.channels.FileLock l = ch.tryLock();
      if (l == null) {
        return true;
      }
      l.release();
      return false;
    } catch (IOException | java.nio.channels.OverlappingFileLockException e) {
      return true;
    }
  }

  /** How long a failed DVM may take to end its jobs before the process exits anyway. */
  private static final long FAIL_STOP_SECONDS = 30;

  private void describe(DvmConfig config, String uri) {
    out.println("jdvm: DVM " + config.name() + " is running");
    out.println(
        "  nodes:     "
            + config.startupNodes().size()
            + " ("
            + config.startupNodes().get(0).name()
            + ".."
            + config.startupNodes().getLast().name()
            + "), "
            + slots
            + " slots each");
    out.println(
        "  scheduler: "
            + (config.scheduler() == DvmConfig.SchedulerKind.EMBEDDED
                ? "embedded, " + config.spareNodes().size() + " spare nodes"
                : "none (start-up nodes only)"));
    if (!config.disabledFeatures().isEmpty()) {
      out.println("  without:   " + config.disabledFeatures());
    }
    out.println("  contact:   " + config.home().resolve(DvmHome.CONTACT));
    out.println("  PMIx URI:  " + uri);
    out.println("  log:       " + config.home().resolve(DvmHome.LOG));
    out.println("  stop with: jdvm stop" + (dir != null ? " --dir " + dir : ""));
  }

  /**
   * Starts this same command again without {@code --detach}, in its own session with its output in
   * the DVM's directory, and waits until that DVM publishes its contact file (or dies, in which
   * case its output says why).
   */
  private int detach(DvmConfig config) {
    Path home = config.home();
    Path log = home.resolve("dvm.out");
    Process child;
    try {
      DvmHome.prepare(home);
    } catch (IOException e) {
      err.println("jdvm start: cannot start the DVM in " + home + ": " + e.getMessage());
      return Main.EXIT_FAILURE;
    }
    try {
      if (busy(home)) {
        err.println(
            "jdvm start: a DVM is already running in " + home + "; stop it with 'jdvm stop'");
        return Main.EXIT_FAILURE;
      }
      Files.deleteIfExists(log); // a link left in its place is removed, never followed
      List<String> cmd = new ArrayList<>();
      if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
        cmd.add("/usr/bin/setsid");
      }
      cmd.add(ProcessHandle.current().info().command().orElse("java"));
      cmd.add(ON_OUT_OF_MEMORY);
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(Main.class.getName());
      cmd.addAll(
          List.of(
              "start",
              "--name",
              config.name(),
              "--dir",
              home.toString(),
              "--nodes",
              Integer.toString(nodes),
              "--slots",
              Integer.toString(slots),
              "--spare",
              Integer.toString(spare),
              "--scheduler",
              scheduler));
      if (!without.isEmpty()) {
        cmd.add("--without");
        cmd.add(String.join(",", without));
      }
      for (String l : limits) {
        cmd.add("--limit");
        cmd.add(l);
      }
      child =
          new ProcessBuilder(cmd)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      err.println("jdvm start: cannot start the DVM process: " + e.getMessage());
      return Main.EXIT_FAILURE;
    }
    Path contact = home.resolve(DvmHome.CONTACT);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Contact published = publishedBy(contact, child.pid());
      if (published != null) {
        describe(config.withName(published.name()), published.uri());
        out.println("  pid:       " + child.pid());
        return Main.EXIT_OK;
      }
      if (!child.isAlive()) {
        err.println(
            "jdvm start: the DVM exited with status "
                + child.exitValue()
                + "; its output ("
                + log
                + "):");
        tail(log);
        return Main.EXIT_FAILURE;
      }
      try {
        child.waitFor(20, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    err.println("jdvm start: the DVM did not become ready within 60 s; see " + log);
    return Main.EXIT_FAILURE;
  }

  /** The contact file if the given process wrote it, else {@code null}. */
  private static Contact publishedBy(Path file, long pid) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      Contact c = Contact.fromFile(file);
      return c.pid() != null && c.pid() == pid ? c : null;
    } catch (PmixException e) {
      return null; // not written yet, or half-written by an earlier DVM
    }
  }

  private void tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      for (String l : lines.subList(Math.max(0, lines.size() - 20), lines.size())) {
        err.println("  " + l);
      }
    } catch (IOException e) {
      err.println("  (cannot read it: " + e.getMessage() + ")");
    }
  }
}
