package org.jdvm.bench.dvm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.agents.LocalAgentPids;

/**
 * {@code jdvm bench --procs N} (docs/cli.md "jdvm bench"): many live processes on this machine. It
 * starts a DVM as {@code jdvm start --detach} does, with {@code --nodes K --slots ceil(N/K)}
 * ({@code --node-agents auto} puts the nodes in local agents once their slots pass what one process
 * holds), spawns one job of N {@code sleep 600} ranks and measures: the time from the spawn to
 * every rank running, the listings' latency while they run ({@code jdvm jobs}, {@code jobs --json},
 * {@code nodes}, {@code events}, each a fresh command as users run it, and the jobs query alone
 * from a client in this JVM), the RSS, threads and open files of the controller and of each local
 * agent, and the time {@code jdvm stop} takes, then that none of the N pids is left. With {@link
 * Settings#listNodes} it starts a second DVM of that many virtual nodes and times {@code jdvm
 * nodes} there. Benchmarks are not tests: nothing here asserts a time.
 */
public final class ProcsBench {
  /**
   * @param procs live processes to hold
   * @param nodes the virtual nodes they spread over
   * @param listNodes the nodes of the second DVM whose {@code jdvm nodes} is timed (0: none)
   * @param listRuns how many times each listing is timed
   * @param jdvm the command that runs {@code jdvm} in a child JVM (the DVM's start and stop)
   * @param cli the command users run {@code jdvm} with (the listings), e.g. the {@code ./jdvm}
   *     launcher with its start-up cache
   */
  public record Settings(
      int procs, int nodes, int listNodes, int listRuns, List<String> jdvm, List<String> cli) {
    public Settings {
      jdvm = List.copyOf(jdvm);
      cli = List.copyOf(cli);
    }
  }

  /**
   * How long the local agents may take to join: each is a JVM, and 8 starting at once on a loaded
   * 2-core machine took more than the default minute.
   */
  static final long JOIN_MILLIS = 300_000;

  private ProcsBench() {}

  /** Runs the measures of {@code s}; the rows in the order measured. */
  public static List<Row> run(Settings s, PrintStream progress)
      throws IOException, InterruptedException, PmixException {
    List<Row> rows = new ArrayList<>();
    Path home = Files.createTempDirectory("jdvm-bench-procs");
    int slots = (s.procs() + s.nodes() - 1) / s.nodes();
    List<String> options =
        List.of(
            "--nodes",
            "" + s.nodes(),
            "--slots",
            "" + slots,
            "--spare",
            "0",
            "--fsync",
            "never",
            "--join-timeout-ms",
            "" + JOIN_MILLIS);
    progress.printf(
        Locale.ROOT, "procs: starting a DVM of %d nodes x %d slots%n", s.nodes(), slots);
    long t0 = System.nanoTime();
    DetachedDvm dvm = DetachedDvm.start(s.jdvm(), home, options, JOIN_MILLIS / 1000 + 90, progress);
    List<Long> pids;
    try {
      rows.add(millis("DVM start, " + s.nodes() + " nodes", System.nanoTime() - t0));
      try (JdvmClient tool =
          JdvmClient.connector().dir(home).output(OutputHandler.DISCARD).connect()) {
        pids = launch(tool, s, rows, progress);
        listings(tool::jobsJson, s, home, rows, progress, "jobs", "jobs --json", "nodes", "events");
        rows.addAll(footprint(dvm.process(), home));
      }
    } catch (IOException | PmixException | RuntimeException e) {
      dvm.close();
      throw e;
    }
    long t1 = System.nanoTime();
    dvm.close();
    rows.add(
        millis("stop (jdvm stop), " + pids.size() + " live processes", System.nanoTime() - t1));
    rows.add(left(pids, progress));
    if (s.listNodes() > 0) {
      rows.addAll(manyNodes(s, progress));
    }
    return rows;
  }

  /**
   * How many of {@code pids} still run a {@code sleep} after the stop: an exited one waiting to be
   * reaped does not, nor a pid the kernel gave again to another program; each gets up to 10 s (one
   * whose agent ended before it did is reaped by a subreaper a moment later).
   */
  private static Row left(List<Long> pids, PrintStream progress) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long left;
    do {
      left = pids.stream().filter(ProcsBench::stillSleeping).count();
    } while (left > 0 && System.nanoTime() < deadline && sleep(200));
    progress.println("procs: " + left + " of " + pids.size() + " processes left after the stop");
    return new Row("processes left after the stop", left + " of " + pids.size(), "0", Map.of());
  }

  private static boolean stillSleeping(long pid) {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(h -> !org.jdvm.host.os.Containment.zombie((int) pid))
        .flatMap(h -> h.info().command())
        .map(c -> c.endsWith("sleep"))
        .orElse(false);
  }

  private static boolean sleep(long millis) throws InterruptedException {
    Thread.sleep(millis);
    return true;
  }

  /** Spawns the job of {@code s.procs()} sleeping ranks; their pids once every one runs. */
  private static List<Long> launch(
      JdvmClient tool, Settings s, List<Row> rows, PrintStream progress)
      throws PmixException, InterruptedException {
    SpawnRequest sleep =
        SpawnRequest.of("sleep", "600").procs(s.procs()).forwardOutput(false).build();
    progress.printf(Locale.ROOT, "procs: spawning %d x sleep 600%n", s.procs());
    long t0 = System.nanoTime();
    tool.spawn(sleep);
    long spawned = System.nanoTime() - t0;
    // The summary, whose size does not grow with the processes, until every rank runs.
    while (running(tool.jobsSummaryJson()) < s.procs()
        && System.nanoTime() - t0 < TimeUnit.MINUTES.toNanos(15)) {
      Thread.sleep(200);
    }
    long running = System.nanoTime() - t0;
    List<Long> pids = runningPids(tool.jobsJson());
    long alive = pids.stream().filter(p -> ProcessHandle.of(p).isPresent()).count();
    rows.add(millis("spawn of " + s.procs() + " x sleep 600 (answered)", spawned));
    rows.add(millis("... until every rank is running", running));
    rows.add(new Row("live processes (pid alive)", alive + " of " + s.procs(), "", Map.of()));
    progress.printf(
        Locale.ROOT,
        "procs: %d running (%d pids alive) after %.0f ms%n",
        pids.size(),
        alive,
        running / 1e6);
    return pids;
  }

  /** How many processes the jobs summary counts running, all jobs together. */
  @SuppressWarnings("unchecked")
  static long running(String summaryJson) {
    long n = 0;
    for (Object j : (List<Object>) Json.parse(summaryJson)) {
      if (((Map<String, Object>) j).get("procStates") instanceof Map<?, ?> states
          && states.get("running") instanceof Number r) {
        n += r.longValue();
      }
    }
    return n;
  }

  /** The pids of the processes the jobs listing shows running. */
  @SuppressWarnings("unchecked")
  static List<Long> runningPids(String jobsJson) {
    List<Long> out = new ArrayList<>();
    for (Object j : (List<Object>) Json.parse(jobsJson)) {
      Object procs = ((Map<String, Object>) j).get("procs");
      if (!(procs instanceof List<?> list)) {
        continue;
      }
      for (Object p : list) {
        Map<String, Object> m = (Map<String, Object>) p;
        if ("running".equals(m.get("state")) && m.get("pid") instanceof Number n) {
          out.add(n.longValue());
        }
      }
    }
    return out;
  }

  /** A listing query of the client in this JVM. */
  @FunctionalInterface
  private interface Query {
    String json() throws PmixException;
  }

  /** A fresh {@code jdvm --version}: what every command's time holds before it asks the DVM. */
  private static Row cliFloor(Settings s) throws IOException, InterruptedException {
    long[] ns = new long[s.listRuns()];
    for (int i = 0; i < ns.length; i++) {
      long t = System.nanoTime();
      command(s.cli(), null, "--version");
      ns[i] = System.nanoTime() - t;
    }
    return Row.latency("floor: jdvm --version (a command's JVM start)", ns, "");
  }

  /** Times each listing as a fresh command, and {@code query} from the client in this JVM. */
  private static void listings(
      Query q, Settings s, Path home, List<Row> rows, PrintStream progress, String... commands)
      throws PmixException, IOException, InterruptedException {
    long[] query = new long[s.listRuns()];
    int bytes = 0;
    for (int i = 0; i < query.length; i++) {
      long t = System.nanoTime();
      bytes = q.json().length();
      query[i] = System.nanoTime() - t;
    }
    rows.add(Row.latency("query in this JVM (" + kib(bytes) + " of JSON)", query, ""));
    rows.add(cliFloor(s));
    for (String c : commands) {
      long[] ns = new long[s.listRuns()];
      long outBytes = 0;
      for (int i = 0; i < ns.length; i++) {
        long t = System.nanoTime();
        outBytes = command(s.cli(), home, c);
        ns[i] = System.nanoTime() - t;
      }
      Row r = Row.latency("jdvm " + c + " (" + kib(outBytes) + " printed)", ns, "< 1 s");
      rows.add(r);
      progress.println("procs: " + r.what() + ": " + r.figure());
    }
  }

  /** Runs {@code jdvm WORDS --dir HOME}; the bytes it printed (its status must be 0). */
  private static long command(List<String> cli, Path home, String words)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(cli);
    cmd.addAll(List.of(words.split(" ")));
    if (home != null) {
      cmd.addAll(List.of("--dir", home.toString()));
    }
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    long n = p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("'jdvm " + words + "' failed (status " + p.exitValue() + ")");
    }
    return n;
  }

  /** RSS, threads and open files of the controller and of each local agent. */
  private static List<Row> footprint(ProcessHandle controller, Path home) {
    List<Row> rows = new ArrayList<>();
    if (controller != null) {
      rows.add(usage("controller (pid " + controller.pid() + ")", controller.pid()));
    }
    for (ProcessHandle a : LocalAgentPids.running(home)) {
      rows.add(usage("local agent (pid " + a.pid() + ")", a.pid()));
    }
    return rows;
  }

  /** One process's VmRSS, Threads and open descriptors, from /proc. */
  static Row usage(String what, long pid) {
    Map<String, Object> d = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          d.put("rssMiB", Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024);
        } else if (line.startsWith("Threads:")) {
          d.put("threads", Long.parseLong(line.replaceAll("[^0-9]", "")));
        }
      }
      try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
        d.put("fds", fds.count());
      }
    } catch (IOException | RuntimeException e) {
      return new Row(what, "gone (" + e.getMessage() + ")", "", d);
    }
    return new Row(
        what,
        String.format(
            Locale.ROOT,
            "RSS %s MiB, %s threads, %s open files",
            d.get("rssMiB"),
            d.get("threads"),
            d.get("fds")),
        "",
        d);
  }

  /** A second DVM of {@code listNodes} virtual nodes: {@code jdvm nodes} and the events there. */
  private static List<Row> manyNodes(Settings s, PrintStream progress)
      throws IOException, InterruptedException, PmixException {
    List<Row> rows = new ArrayList<>();
    Path home = Files.createTempDirectory("jdvm-bench-nodes");
    progress.printf(Locale.ROOT, "procs: starting a DVM of %d nodes%n", s.listNodes());
    long t0 = System.nanoTime();
    try (DetachedDvm dvm =
        DetachedDvm.start(
            s.jdvm(),
            home,
            List.of(
                "--nodes",
                "" + s.listNodes(),
                "--slots",
                "1",
                "--spare",
                "0",
                "--node-agents",
                "off",
                "--fsync",
                "never"),
            progress)) {
      rows.add(millis("DVM start, " + s.listNodes() + " virtual nodes", System.nanoTime() - t0));
      try (JdvmClient tool =
          JdvmClient.connector().dir(home).output(OutputHandler.DISCARD).connect()) {
        // A job on the first nodes (all at once, more would pass the controller's own open-file
        // limit), whose changes are in the events' history.
        int ranks = Math.min(s.listNodes(), 1000);
        tool.spawn(SpawnRequest.of("true").procs(ranks).forwardOutput(false).build()).awaitEnd();
        listings(tool::nodesJson, s, home, rows, progress, "nodes", "nodes --json", "events");
      }
    }
    return rows;
  }

  private static String kib(long bytes) {
    return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
  }

  private static Row millis(String what, long ns) {
    return new Row(
        what,
        String.format(Locale.ROOT, "%.0f ms", ns / 1e6),
        "",
        Map.of("ms", Math.round(ns / 1e6)));
  }
}
