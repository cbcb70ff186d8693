package org.jdvm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmLogging;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm bench}: measures what users wait for on the embedded default (docs/cli.md "jdvm
 * bench") — the latency of spawning a one-process {@code /bin/true} job and waiting for its end,
 * job throughput with 1, 8 and 32 concurrent clients, allocation NEW+RELEASE round trips, and a
 * fresh {@code jdvm run -n 1 /bin/true} command from start to exit; and the wire-up (docs/wireup.md
 * §c.11): a fence with data over 8 ranks, as a libpmix client times its own put+commit+fence
 * rounds, and {@code jdvm run -n N ./mpi_hello} (N = 2, 4, 8) side by side with Debian's {@code
 * mpirun --oversubscribe -n N} on the same program, in the same run; beside the spawn figures, the
 * machine's floor, measured in the same run by a C program ({@link SpawnFloor}) that {@code
 * posix_spawn}s and reaps {@code /bin/true}, and jdvm's ratio to it. It starts its own DVM in a
 * scratch directory as {@code jdvm start --detach} does (its own process, with the JVM's default
 * compilers; {@code --in-process} runs it inside this JVM, under the launcher's start-up flags),
 * shows progress while it runs, and prints a table (or JSON). The clients run in this JVM.
 * Benchmarks are not tests: nothing here asserts a time.
 */
@Command(
    mixinStandardHelpOptions = true,
    description = "Measure spawn latency, job throughput, allocation round trips and CLI start-up.")
public final class BenchCommand implements Callable<Integer> {
  @Option(names = "--json", description = "Print the results as one JSON object.")
  boolean json;

  @Option(
      names = "--spawns",
      paramLabel = "N",
      description = "Spawn-and-wait samples (default 500).")
  int spawns = 500;

  @Option(
      names = "--warm-up",
      paramLabel = "N",
      description =
          "Spawn-and-waits run before anything is measured (default 10000): the first half by "
              + WARM_UP_CLIENTS
              + " concurrent clients, the second by one. The DVM's JIT compiles and recompiles"
              + " its hot paths over its first ten thousand jobs or so, for what one client and"
              + " what concurrent clients make hot; a DVM lives longer than that.")
  int warmUp = 10_000;

  /** How many clients share the warm-up's first half: as many as the rate target is set for. */
  static final int WARM_UP_CLIENTS = 8;

  @Option(names = "--allocs", paramLabel = "N", description = "NEW+RELEASE samples (default 500).")
  int allocs = 500;

  @Option(
      names = "--seconds",
      paramLabel = "S",
      description = "Seconds per throughput run (default 5).")
  int seconds = 5;

  @Option(
      names = "--rate-warm-up",
      paramLabel = "S",
      description =
          "Seconds each throughput run's clients spawn before its jobs are counted (default 3):"
              + " the DVM's JIT recompiles what a new number of clients makes hot.")
  int rateWarmUp = 3;

  @Option(
      names = "--cli-runs",
      paramLabel = "N",
      description = "Fresh 'jdvm run' commands to time (default 30; 0 skips).")
  int cliRuns = 30;

  @Option(
      names = "--mpi-runs",
      paramLabel = "N",
      description =
          "Runs of each 'jdvm run -n N ./mpi_hello' and 'mpirun -n N ./mpi_hello' (default 10; 0"
              + " skips the wire-up measures).")
  int mpiRuns = 10;

  @Option(
      names = "--agents",
      paramLabel = "N,...",
      split = ",",
      description =
          "Instead: the scale benchmark, the controller against N simulated node agents (e.g."
              + " 10,100,1000).")
  List<Integer> agents;

  @Option(
      names = "--fsync",
      paramLabel = "POLICY",
      description =
          "The bench DVM's journal: interval (default), always, never, or off (no journal), to"
              + " measure what the journal costs.")
  String fsync = "interval";

  @Option(
      names = "--in-process",
      description =
          "Run the bench DVM inside this JVM (C1 only, serial GC: the CLI's start-up flags) instead"
              + " of in its own process as 'jdvm start --detach' runs it.")
  boolean inProcess;

  private final PrintStream out = System.out;
  private final PrintStream progress = System.err;

  /** One measured figure. */
  record Row(String what, String figure, String target, Map<String, Object> data) {}

  @Override
  public Integer call() throws Exception {
    Path home = Files.createTempDirectory("jdvm-bench-");
    boolean ok = false;
    try {
      int rc = measure(home);
      ok = rc == Main.EXIT_OK;
      return rc;
    } finally {
      if (ok) {
        // Its DVM has stopped: the directory (logs, journal, secret) is of no more use.
        org.jdvm.host.JobDirectories.removeTree(home);
      } else {
        progress.println("jdvm bench: the bench DVM's directory and logs are kept in " + home);
      }
    }
  }

  private int measure(Path home) throws Exception {
    // The DVM of a detached bench writes its own dvm.log; this JVM's lines go beside it.
    DvmLogging.configure(
        home.resolve(inProcess || agents != null ? "dvm.log" : "bench.log"), false);
    DvmLogging.quiet();
    if (agents != null) {
      for (AgentScaleBench.Result r : AgentScaleBench.run(agents, 10, progress)) {
        out.println(
            json
                ? Json.write(
                    Map.of(
                        "nodes",
                        r.nodes(),
                        "startMs",
                        r.startMs(),
                        "launchMs",
                        r.launchMs(),
                        "fenceJobMs",
                        r.fenceJobMs(),
                        "cpuUsPerNode",
                        r.cpuUsPerNode()))
                : r.toString());
      }
      return Main.EXIT_OK;
    }
    List<Row> rows = new ArrayList<>();
    SpawnFloor floor = SpawnFloor.build(home, progress);
    Row floorLatency = floor == null ? null : floor.latency(spawns, this::latencyRow);
    DvmConfig config =
        DvmConfig.embedded("bench", 4, 16, 8, home)
            .withFsync(org.jdvm.server.journal.FsyncPolicy.parse(fsync));
    try (AutoCloseable dvm = inProcess ? DvmServer.start(config) : detached(home)) {
      Contact contact = Contact.fromFile(home.resolve(Contact.CONTACT_FILE));
      Row latency = spawnLatency(contact);
      rows.add(latency);
      if (floorLatency != null) {
        rows.add(floorLatency);
        rows.add(SpawnFloor.latencyRatio(latency, floorLatency));
      }
      for (int clients : new int[] {1, 8, 32}) {
        Row r = throughput(contact, clients);
        rows.add(r);
        if (clients == 8 && floor != null) {
          rows.addAll(rateBesideFloor(contact, floor));
        }
      }
      if (floor == null) {
        rows.add(
            new Row(
                "floor: posix_spawn + wait of /bin/true in C",
                "skipped: " + SpawnFloor.whyNot(),
                "",
                Map.of("skipped", SpawnFloor.whyNot())));
      }
      rows.add(allocationRoundTrips(contact));
      if (cliRuns > 0) {
        Row cli = freshRun(home);
        if (cli != null) {
          rows.add(cli);
        }
      }
      if (mpiRuns > 0) {
        rows.addAll(new WireupBench(home, contact, mpiRuns, progress).rows());
      }
    }
    print(rows);
    return Main.EXIT_OK;
  }

  /**
   * The bench DVM as users run it: {@code jdvm start --detach} in a child JVM of this class path
   * (which starts the DVM's own process with the flags it always gets), ended by {@code jdvm stop}.
   */
  private AutoCloseable detached(Path home) throws IOException, InterruptedException {
    List<String> start =
        List.of(
            "start",
            "--detach",
            "--dir",
            home.toString(),
            "--name",
            "bench",
            "--nodes",
            "4",
            "--slots",
            "16",
            "--spare",
            "8",
            "--fsync",
            fsync);
    if (cli(start) != 0) {
      throw new IOException("cannot start the bench DVM; see " + home.resolve("dvm.out"));
    }
    return () -> cli(List.of("stop", "--dir", home.toString()));
  }

  /** {@code jdvm ARGS} in a child JVM of this class path, its output discarded; its status. */
  private static int cli(List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(StartCommand.DVM_JVM_ACCESS);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(args);
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } finally {
      p.destroyForcibly();
    }
  }

  private JdvmClient connect(Contact c) throws PmixException {
    return JdvmClient.connector()
        .contact(c)
        .role(Role.TOOL)
        .output(OutputHandler.DISCARD)
        .connect();
  }

  private static SpawnRequest trueJob() {
    return SpawnRequest.of("/bin/true").forwardOutput(false).notifyCompletion(true).build();
  }

  /**
   * {@link #warmUp} spawn-and-waits: the first half shared by {@link #WARM_UP_CLIENTS} concurrent
   * clients, the second by one.
   */
  private void warmUp(Contact c) throws Exception {
    AtomicLong done = new AtomicLong();
    warmUp(c, WARM_UP_CLIENTS, warmUp / 2, done);
    warmUp(c, 1, warmUp - warmUp / 2, done);
  }

  private void warmUp(Contact c, int clients, int jobs, AtomicLong done) throws Exception {
    AtomicLong left = new AtomicLong(jobs);
    runClients(
            c,
            clients,
            client -> {
              while (left.getAndDecrement() > 0) {
                client.spawn(trueJob()).awaitEnd();
                tick("warm-up", (int) done.incrementAndGet(), warmUp);
              }
            })
        .join();
  }

  /** What one client of {@link #runClients} does, on its own platform thread. */
  private interface ClientWork {
    void run(JdvmClient client) throws Exception;
  }

  /** Client threads started by {@link #runClients}. */
  private record Clients(List<Thread> threads, List<Exception> failures) {
    /** Waits for every client to finish; the first failure, if any, is thrown. */
    void join() throws Exception {
      for (Thread t : threads) {
        t.join();
      }
      if (!failures.isEmpty()) {
        throw failures.getFirst();
      }
    }
  }

  /** {@code n} clients, each connected now and running {@code work} on a thread of its own. */
  private Clients runClients(Contact c, int n, ClientWork work) throws PmixException {
    List<Thread> threads = new ArrayList<>();
    List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < n; i++) {
      JdvmClient client = connect(c);
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try (client) {
                      work.run(client);
                    } catch (Exception e) {
                      failures.add(e);
                    }
                  }));
    }
    return new Clients(threads, failures);
  }

  private Row spawnLatency(Contact c) throws Exception {
    long[] ns = new long[spawns];
    warmUp(c);
    try (JdvmClient client = connect(c)) {
      for (int i = 0; i < spawns; i++) {
        long t0 = System.nanoTime();
        client.spawn(trueJob()).awaitEnd();
        ns[i] = System.nanoTime() - t0;
        tick("spawn-and-wait", i + 1, spawns);
      }
    }
    return latencyRow("spawn-and-wait, 1-proc /bin/true", ns, "median < 5 ms");
  }

  /** Turns of {@link #rateBesideFloor}: one second of the floor, one of jdvm, each. */
  static final int TURNS = 6;

  /**
   * 8 clients' job rate beside the floor's 8-thread rate, measured in {@link #TURNS} alternating
   * one-second turns (the clients wait, nothing in flight, while the floor runs), so that a drift
   * of the machine's speed falls on both alike: the ratio is the median of the turns' ratios. Run
   * after the 8-client throughput run, which warmed the DVM up for 8 clients.
   */
  private List<Row> rateBesideFloor(Contact c, SpawnFloor floor) throws Exception {
    Object gate = new Object();
    boolean[] open = {false};
    int[] busy = {0};
    AtomicLong done = new AtomicLong();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    Clients clients =
        runClients(
            c,
            8,
            client -> {
              while (true) {
                synchronized (gate) {
                  while (!open[0] && !stop.get()) {
                    gate.wait();
                  }
                  if (stop.get()) {
                    return;
                  }
                  busy[0]++;
                }
                try {
                  client.spawn(trueJob()).awaitEnd();
                  done.incrementAndGet();
                } finally {
                  synchronized (gate) {
                    busy[0]--;
                    gate.notifyAll();
                  }
                }
              }
            });
    double[] ratios = new double[TURNS];
    long floorSpawns = 0;
    double floorSeconds = 0;
    long jobs = 0;
    long jdvmNs = 0;
    try {
      for (int t = 0; t < TURNS; t++) {
        progress.printf("\r  8 clients beside the floor: turn %d/%d", t + 1, TURNS);
        Row f = floor.rate(8, 1);
        if (f == null) {
          return List.of();
        }
        double floorRate = ((Number) f.data().get("spawnsPerSecond")).doubleValue();
        floorSpawns += Math.round(floorRate);
        floorSeconds += 1;
        long before = done.get();
        long t0 = System.nanoTime();
        synchronized (gate) {
          open[0] = true;
          gate.notifyAll();
        }
        Thread.sleep(1000);
        synchronized (gate) {
          open[0] = false;
          while (busy[0] > 0) {
            gate.wait();
          }
        }
        long ns = System.nanoTime() - t0;
        long n = done.get() - before;
        jobs += n;
        jdvmNs += ns;
        ratios[t] = (n / (ns / 1e9)) / floorRate;
      }
    } finally {
      stop.set(true);
      synchronized (gate) {
        gate.notifyAll();
      }
      progress.println();
    }
    clients.join();
    Arrays.sort(ratios);
    double median = ratios[TURNS / 2 - 1] / 2 + ratios[TURNS / 2] / 2;
    double jdvmRate = jobs / (jdvmNs / 1e9);
    double floorRate = floorSpawns / floorSeconds;
    Map<String, Object> jd = new LinkedHashMap<>();
    jd.put("clients", 8);
    jd.put("turns", TURNS);
    jd.put("jobsPerSecond", Math.round(jdvmRate));
    Map<String, Object> fd = new LinkedHashMap<>();
    fd.put("threads", 8);
    fd.put("turns", TURNS);
    fd.put("spawnsPerSecond", Math.round(floorRate));
    Map<String, Object> rd = new LinkedHashMap<>();
    rd.put("percent", Math.round(median * 100));
    rd.put("turnPercents", Arrays.stream(ratios).mapToLong(r -> Math.round(r * 100)).toArray());
    return List.of(
        new Row(
            "job throughput, 8 clients, in turns with the floor",
            String.format(java.util.Locale.ROOT, "%.0f jobs/s", jdvmRate),
            "",
            jd),
        new Row(
            "floor: posix_spawn + waitpid /bin/true in C, 8 threads",
            String.format(java.util.Locale.ROOT, "%.0f spawns/s", floorRate),
            "",
            fd),
        new Row(
            "8-client job rate / floor 8-thread rate, median turn",
            String.format(
                java.util.Locale.ROOT,
                "%.0f %% (turns %.0f..%.0f %%)",
                median * 100,
                ratios[0] * 100,
                ratios[TURNS - 1] * 100),
            ">= 60 %",
            rd));
  }

  private Row throughput(Contact c, int clients) throws Exception {
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    long counted = System.nanoTime() + TimeUnit.SECONDS.toNanos(rateWarmUp);
    long deadline =
        counted + TimeUnit.SECONDS.toNanos(seconds) + TimeUnit.MILLISECONDS.toNanos(200);
    List<Thread> threads = new ArrayList<>();
    List<JdvmClient> conns = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      conns.add(connect(c));
    }
    long[] window = new long[2];
    for (JdvmClient client : conns) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                      while (System.nanoTime() < deadline) {
                        client.spawn(trueJob()).awaitEnd();
                        if (System.nanoTime() >= counted) {
                          done.incrementAndGet();
                        }
                      }
                    } catch (PmixException | InterruptedException e) {
                      failed.incrementAndGet();
                    }
                  }));
    }
    start.countDown();
    while (threads.stream().anyMatch(Thread::isAlive)) {
      Thread.sleep(250);
      progress.printf(
          "\r  throughput, %2d clients: %s",
          clients,
          System.nanoTime() < counted ? "warming up" : String.format("%6d jobs", done.get()));
    }
    window[0] = counted;
    window[1] = System.nanoTime();
    progress.println();
    for (JdvmClient client : conns) {
      client.close();
    }
    double perSecond = done.get() / ((window[1] - window[0]) / 1e9);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("clients", clients);
    data.put("warmUpSeconds", rateWarmUp);
    data.put("jobs", done.get());
    data.put("jobsPerSecond", Math.round(perSecond));
    data.put("failedClients", failed.get());
    return new Row(
        "job throughput, " + clients + " concurrent client" + (clients > 1 ? "s" : ""),
        String.format(Locale.ROOT, "%.0f jobs/s", perSecond),
        clients == 8 ? ">= 300 jobs/s" : "",
        data);
  }

  private Row allocationRoundTrips(Contact c) throws PmixException {
    long[] ns = new long[allocs];
    try (JdvmClient client = connect(c)) {
      for (int i = -20; i < allocs; i++) {
        long t0 = System.nanoTime();
        AllocationResult r = client.allocate(AllocationRequest.newAllocation().nodes(1).build());
        client.allocate(AllocationRequest.release().allocId(r.allocId()).build());
        if (i >= 0) {
          ns[i] = System.nanoTime() - t0;
          tick("NEW+RELEASE", i + 1, allocs);
        }
      }
    }
    return latencyRow("allocation NEW+RELEASE round trip", ns, "median < 1 ms");
  }

  /**
   * Times fresh {@code ./jdvm run -n 1 /bin/true} commands, start to exit, through the launcher
   * ({@code JDVM_HOME} names the checkout the launcher set this JVM up from).
   */
  private Row freshRun(Path home) throws IOException, InterruptedException {
    String checkout = System.getenv("JDVM_HOME");
    if (checkout == null || !Files.isExecutable(Path.of(checkout, "jdvm"))) {
      progress.println("  (skipping the fresh 'jdvm run' timing: not started through ./jdvm)");
      return null;
    }
    List<String> cmd =
        List.of(
            Path.of(checkout, "jdvm").toString(),
            "run",
            "--dvm",
            home.resolve(Contact.CONTACT_FILE).toString(),
            "-n",
            "1",
            "/bin/true");
    for (int i = 0; i < 3; i++) {
      new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }
    long[] ns = new long[cliRuns];
    for (int i = 0; i < cliRuns; i++) {
      long t0 = System.nanoTime();
      int status =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start()
              .waitFor();
      ns[i] = System.nanoTime() - t0;
      if (status != 0) {
        progress.println("  fresh 'jdvm run' exited " + status);
      }
      tick("fresh 'jdvm run -n 1 /bin/true'", i + 1, cliRuns);
    }
    return latencyRow("fresh 'jdvm run -n 1 /bin/true', start to exit", ns, "median < 100 ms");
  }

  Row latencyRow(String what, long[] ns, String target) {
    long[] sorted = ns.clone();
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2] / 1e6;
    double p99 =
        sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1e6;
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("samples", ns.length);
    data.put("medianMs", round(median));
    data.put("p99Ms", round(p99));
    return new Row(
        what, String.format(Locale.ROOT, "median %.2f ms, p99 %.2f ms", median, p99), target, data);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private void tick(String what, int i, int n) {
    if (i == n || i % Math.max(1, n / 20) == 0) {
      progress.printf("\r  %s: %d/%d", what, i, n);
      if (i == n) {
        progress.println();
      }
    }
  }

  private void print(List<Row> rows) {
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Row r : rows) {
        Map<String, Object> d = new LinkedHashMap<>(r.data());
        d.put("target", r.target());
        m.put(r.what(), d);
      }
      out.println(Json.write(m));
      return;
    }
    Table t = new Table("MEASURE", "RESULT", "TARGET");
    for (Row r : rows) {
      t.row(r.what(), r.figure(), r.target().isEmpty() ? "-" : r.target());
    }
    out.println();
    t.print(out);
  }
}
