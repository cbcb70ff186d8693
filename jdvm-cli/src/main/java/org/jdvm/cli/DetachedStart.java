package org.jdvm.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.Contact;
import org.jdvm.client.PmixException;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentRoster;
import org.jdvm.server.home.DvmHome;

/**
 * {@code jdvm start --detach}: starts the same command again without {@code --detach}, in its own
 * session with its output in the DVM's directory ({@code dvm.out}), and waits until that DVM
 * publishes its contact file (or dies, in which case its output says why).
 */
final class DetachedStart {
  private final StartCommand start;

  DetachedStart(StartCommand start) {
    this.start = start;
  }

  /** Whether a DVM holds the directory's lock (its contact file may not be written yet). */
  private static boolean busy(Path home) {
    try {
      return DvmHome.locked(home);
    } catch (IOException | RuntimeException e) {
      return true; // cannot tell: do not start a second DVM on it
    }
  }

  /**
   * Starts this same command again start.without {@code --detach}, in its own session with its
   * output in the DVM's directory, and waits until that DVM publishes its contact file (or dies, in
   * which case its output says why).
   */
  int run(DvmConfig config) {
    Path home = config.home();
    Path log = home.resolve("dvm.out");
    // Across start.hosts, or restarting such a DVM whose controller died: the roster names its
    // start.nodes.
    boolean rostered =
        start.hosts != null
            || start.hostfile != null
            || (Files.isRegularFile(home.resolve(AgentRoster.FILE))
                && org.jdvm.server.journal.RecoveredJournal.journaledName(home.resolve("journal"))
                    != null);
    Process child;
    try {
      DvmHome.prepare(home);
    } catch (IOException e) {
      start.err.println("jdvm start: cannot start the DVM in " + home + ": " + e.getMessage());
      return Main.EXIT_FAILURE;
    }
    try {
      if (busy(home)) {
        start.err.println(
            "jdvm start: a DVM is already running in " + home + "; stop it with 'jdvm stop'");
        return Main.EXIT_FAILURE;
      }
      Files.deleteIfExists(log); // a link left in its place is removed, never followed
      Files.createFile(
          log,
          java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
              java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
      child =
          new ProcessBuilder(detachedCommand(config))
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      start.err.println("jdvm start: cannot start the DVM process: " + e.getMessage());
      return Main.EXIT_FAILURE;
    }
    return awaitDetached(config, child, log, rostered);
  }

  /** The command line of the detached DVM: this JVM, this class path, these options. */
  List<String> detachedCommand(DvmConfig config) {
    List<String> cmd = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      cmd.add("/usr/bin/setsid");
    }
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(StartCommand.DVM_JVM_ACCESS);
    cmd.add(StartCommand.ON_OUT_OF_MEMORY);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "start",
            "--detached-child",
            "--name",
            config.name(),
            "--dir",
            config.home().toString(),
            "--spare",
            Integer.toString(start.spare),
            "--scheduler",
            config.scheduler().name().toLowerCase(Locale.ROOT),
            "--grace",
            Long.toString(start.graceMillis),
            "--fsync",
            start.fsync,
            "--rejoin-ms",
            Long.toString(start.rejoinMillis)));
    cmd.addAll(start.tools.args());
    // Unset, they stay unset: the child reads the same Slurm allocation from its environment.
    if (start.nodes != null) {
      cmd.addAll(List.of("--nodes", Integer.toString(start.nodes)));
    }
    if (start.slots != null) {
      cmd.addAll(List.of("--slots", Integer.toString(start.slots)));
    }
    if (!start.without.isEmpty()) {
      cmd.addAll(List.of("--without", String.join(",", start.without)));
    }
    if (start.discardJournalAfter != null) {
      cmd.addAll(List.of("--discard-journal-after", start.discardJournalAfter));
    }
    for (String l : start.limits) {
      cmd.addAll(List.of("--limit", l));
    }
    cmd.addAll(agentOptions());
    return cmd;
  }

  /** The options of a DVM with agents on other hosts (or in a Slurm allocation), for its child. */
  private List<String> agentOptions() {
    List<String> cmd = new ArrayList<>();
    if (start.hosts != null || start.hostfile != null) {
      cmd.addAll(
          List.of(
              start.hosts != null ? "--hosts" : "--hostfile",
              start.hosts != null ? start.hosts : start.hostfile.toAbsolutePath().toString(),
              "--launcher",
              start.launcher));
    }
    if (start.hosts != null || start.hostfile != null || start.slurm != null) {
      cmd.addAll(
          List.of(
              "--heartbeat-ms",
              Long.toString(start.heartbeatMillis),
              "--missed-heartbeats",
              Integer.toString(start.missedHeartbeats),
              "--join-timeout-ms",
              Long.toString(start.joinTimeoutMillis)));
      if (start.listen != null) {
        cmd.addAll(List.of("--listen", start.listen));
      }
      if (start.agentCommand != null) {
        cmd.addAll(List.of("--agent-command", start.agentCommand));
      }
    }
    return cmd;
  }

  /** The directory of the DVM's PMIx tool rendezvous files its contact names, or null. */
  private static Path toolsOf(Path contact) {
    try {
      Object tree = org.jdvm.pmix.json.Json.parse(Files.readString(contact));
      return tree instanceof java.util.Map<?, ?> m && m.get("tools") instanceof String t
          ? Path.of(t)
          : null;
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Waits, at most 60 s, until the detached DVM publishes its contact file (then describes it) or
   * exits (then shows the end of its output).
   */
  private int awaitDetached(DvmConfig config, Process child, Path log, boolean rostered) {
    Path contact = config.home().resolve(DvmHome.CONTACT);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      Contact published = publishedBy(contact, child.pid());
      if (published != null) {
        DvmConfig shown = config.withName(published.name());
        start.describe(rostered ? asStarted(shown) : shown, published.uri(), toolsOf(contact));
        start.out.println("  pid:       " + child.pid());
        return Main.EXIT_OK;
      }
      if (!child.isAlive()) {
        start.err.println(
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
    start.err.println("jdvm start: the DVM did not become ready within 60 s; see " + log);
    return Main.EXIT_FAILURE;
  }

  /**
   * A DVM across start.hosts, or one restarted on the directory of such a DVM, started with the
   * start.nodes and scheduler its roster names (docs/journal.md "Agents that outlive the
   * controller").
   */
  private static DvmConfig asStarted(DvmConfig config) {
    try {
      AgentRoster roster = AgentRoster.read(config.home());
      return roster == null
          ? config
          : config
              .withStartupNodes(roster.pool())
              .withScheduler(
                  DvmConfig.SchedulerKind.valueOf(roster.scheduler().toUpperCase(Locale.ROOT)));
    } catch (IOException | IllegalArgumentException e) {
      return config;
    }
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
        start.err.println("  " + l);
      }
    } catch (IOException e) {
      start.err.println("  (cannot read it: " + e.getMessage() + ")");
    }
  }
}
