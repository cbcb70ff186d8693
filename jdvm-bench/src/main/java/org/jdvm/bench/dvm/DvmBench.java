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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.host.JobDirectories;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmLogging;
import org.jdvm.server.journal.FsyncPolicy;

/**
 * The whole-DVM benchmark behind {@code jdvm bench} (docs/cli.md "jdvm bench"), which parses its
 * options into {@link Settings} and prints the {@link Row}s: what users wait for on the embedded
 * default — the latency of spawning a one-process {@code /bin/true} job and waiting for its end,
 * job throughput with 1, 8 and 32 concurrent clients, allocation NEW+RELEASE round trips, and a
 * fresh {@code jdvm run -n 1 /bin/true} command from start to exit; and the wire-up ({@link
 * WireupBench}, docs/wireup.md §c.11): a fence with data over 8 ranks, as a libpmix client times
 * its own put+commit+fence rounds; an MPI hello of each family under {@code jdvm run} and under its
 * own launcher beside singletons with no launcher ({@link MpiLaunchBench}, alone with {@link
 * Settings#only} {@code mpi}); beside the spawn figures, the machine's floor, measured in the same
 * run by a C program ({@link SpawnFloor}) that {@code posix_spawn}s and reaps {@code /bin/true},
 * and jdvm's ratio to it ({@link TurnsWithFloor}). It starts its own DVM in a scratch directory as
 * {@code jdvm start --detach} does (its own process, with the JVM's default compilers; {@link
 * Settings#inProcess} runs it inside this JVM) and stops it however the bench ends: a measure that
 * throws, a signal ({@link DetachedDvm}). It shows progress while it runs. The clients run in this
 * JVM. {@link #agents} runs the scale benchmark instead ({@link AgentScaleBench}). Benchmarks are
 * not tests: nothing here asserts a time.
 */
public final class DvmBench {
  /** How many clients share the warm-up's first half: as many as the rate target is set for. */
  public static final int WARM_UP_CLIENTS = 8;

  /**
   * What to measure and for how long (the options of docs/cli.md "jdvm bench"). The bench DVM is
   * started as {@code jdvm start --detach} starts one, by {@code jdvm}: the command that runs
   * {@code jdvm} in a child JVM (java, its flags, the class path, the main class); or, with {@code
   * inProcess}, inside this JVM.
   */
  public record Settings(
      int spawns,
      int warmUp,
      int allocs,
      int seconds,
      int rateWarmUp,
      int rateTurns,
      int cliRuns,
      int mpiRuns,
      int mpiWarmUp,
      List<Integer> mpiRanks,
      String only,
      String fsync,
      boolean inProcess,
      List<String> jdvm) {
    /** {@link #only}'s section: the MPI launch measures alone ({@link MpiLaunchBench}). */
    public static final String MPI = "mpi";

    public Settings {
      mpiRanks = List.copyOf(mpiRanks);
      jdvm = List.copyOf(jdvm);
    }

    /** Whether every measure runs, not only one section. */
    boolean all() {
      return only == null;
    }
  }

  /** A measure run against the bench DVM once it is up: its rows. */
  public interface Measure {
    List<Row> rows(Contact bench) throws Exception;
  }

  private final Settings s;
  private final Path home;
  private final PrintStream progress;
  private final Measure last;

  private DvmBench(Settings s, Path home, PrintStream progress, Measure last) {
    this.s = s;
    this.home = home;
    this.progress = progress;
    this.last = last;
  }

  /** The measures of {@code s}, in the order the table shows them; progress on {@code progress}. */
  public static List<Row> run(Settings s, PrintStream progress) throws Exception {
    return run(s, progress, bench -> List.of());
  }

  /**
   * {@link #run(Settings, PrintStream)} with {@code last} measured after the others, against the
   * same DVM: a test's seam, to see that whatever a measure throws, the DVM the bench started is
   * stopped before the exception leaves here.
   */
  public static List<Row> run(Settings s, PrintStream progress, Measure last) throws Exception {
    // The DVM of a detached bench writes its own dvm.log; this JVM's lines go beside it.
    return inScratchHome(
        s.inProcess() ? "dvm.log" : "bench.log",
        progress,
        home -> new DvmBench(s, home, progress, last).measure());
  }

  /** The scale benchmark: the controller against each number of simulated node agents. */
  public static List<AgentScaleBench.Result> agents(List<Integer> sizes, PrintStream progress)
      throws Exception {
    return inScratchHome("dvm.log", progress, home -> AgentScaleBench.run(sizes, 10, progress));
  }

  /** What runs in the bench's scratch directory. */
  private interface InHome<T> {
    T measure(Path home) throws Exception;
  }

  /**
   * Runs {@code body} in a scratch directory that this JVM logs into ({@code log}) and that is
   * removed after a success; kept, and said so, after a failure.
   */
  private static <T> T inScratchHome(String log, PrintStream progress, InHome<T> body)
      throws Exception {
    Path home = Files.createTempDirectory("jdvm-bench-");
    boolean ok = false;
    try {
      DvmLogging.configure(home.resolve(log), false);
      DvmLogging.quiet();
      T result = body.measure(home);
      ok = true;
      return result;
    } finally {
      if (ok) {
        // Its DVM has stopped: the directory (logs, journal, secret) is of no more use.
        JobDirectories.removeTree(home);
      } else {
        progress.println("jdvm bench: the bench DVM's directory and logs are kept in " + home);
      }
    }
  }

  private List<Row> measure() throws Exception {
    List<Row> rows = new ArrayList<>();
    SpawnFloor floor = s.all() ? SpawnFloor.build(home, progress) : null;
    Row floorLatency = floor == null ? null : floor.latency(s.spawns());
    DvmConfig config =
        DvmConfig.embedded("bench", 4, 16, 8, home).withFsync(FsyncPolicy.parse(s.fsync()));
    try (AutoCloseable dvm =
        s.inProcess() ? inProcess(config) : DetachedDvm.start(s, home, progress)) {
      Contact contact = Contact.fromFile(home.resolve(Contact.CONTACT_FILE));
      if (s.all()) {
        rows.addAll(spawnRows(contact, floor, floorLatency));
        rows.add(allocationRoundTrips(contact));
        if (s.cliRuns() > 0) {
          Row cli = freshRun();
          if (cli != null) {
            rows.add(cli);
          }
        }
        if (s.mpiRuns() > 0) {
          rows.addAll(new WireupBench(home, contact, progress).rows());
        }
      }
      if (s.mpiRuns() > 0) {
        rows.addAll(mpiLaunch(contact));
      }
      rows.addAll(last.rows(contact));
    }
    return rows;
  }

  /**
   * The bench DVM inside this JVM, closed when the bench leaves its measures, or by a shutdown hook
   * when a signal ends the bench first (as {@code jdvm start} closes its DVM): its jobs end.
   */
  private static AutoCloseable inProcess(DvmConfig config) throws IOException {
    DvmServer server = DvmServer.start(config);
    Thread hook = Thread.ofPlatform().name("jdvm-bench-stop").unstarted(server::close);
    Runtime.getRuntime().addShutdownHook(hook);
    return () -> {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        return; // the JVM is exiting: the hook closes the DVM
      }
      server.close();
    };
  }

  /**
   * The MPI launch measures, {@code jdvm run} as a user types it: {@code ./jdvm} when the bench was
   * started through it ({@code JDVM_HOME}), otherwise this class path's JVM with the launcher's
   * start-up flags but without its AOT cache.
   */
  private List<Row> mpiLaunch(Contact contact) throws Exception {
    String checkout = System.getenv("JDVM_HOME");
    List<String> jdvm;
    String cli;
    if (checkout != null && Files.isExecutable(Path.of(checkout, "jdvm"))) {
      jdvm = List.of(Path.of(checkout, "jdvm").toString());
      cli = "./jdvm";
    } else {
      jdvm = new ArrayList<>(s.jdvm());
      jdvm.addAll(1, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
      cli = "java -cp, no AOT cache";
    }
    return new MpiLaunchBench(
            home, contact, jdvm, cli, s.mpiRanks(), s.mpiWarmUp(), s.mpiRuns(), progress)
        .rows();
  }

  /** Spawn latency and job throughput, each beside the floor's when it could be built. */
  private List<Row> spawnRows(Contact contact, SpawnFloor floor, Row floorLatency)
      throws Exception {
    List<Row> rows = new ArrayList<>();
    Row latency = spawnLatency(contact);
    rows.add(latency);
    if (floorLatency != null) {
      rows.add(floorLatency);
      rows.add(SpawnFloor.latencyRatio(latency, floorLatency));
    }
    for (int clients : new int[] {1, 8, 32}) {
      rows.add(throughput(contact, clients));
      if (clients == 8 && floor != null) {
        rows.addAll(TurnsWithFloor.measure(contact, floor, s.rateTurns(), progress));
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
    return rows;
  }

  /**
   * {@link Settings#warmUp} spawn-and-waits: the first half shared by {@link #WARM_UP_CLIENTS}
   * concurrent clients, the second by one.
   */
  private void warmUp(Contact c) throws Exception {
    AtomicLong done = new AtomicLong();
    warmUp(c, WARM_UP_CLIENTS, s.warmUp() / 2, done);
    warmUp(c, 1, s.warmUp() - s.warmUp() / 2, done);
  }

  private void warmUp(Contact c, int clients, int jobs, AtomicLong done) throws Exception {
    AtomicLong left = new AtomicLong(jobs);
    Clients.start(
            c,
            clients,
            client -> {
              while (left.getAndDecrement() > 0) {
                client.spawn(Clients.trueJob()).awaitEnd();
                tick("warm-up", (int) done.incrementAndGet(), s.warmUp());
              }
            })
        .join();
  }

  private Row spawnLatency(Contact c) throws Exception {
    long[] ns = new long[s.spawns()];
    warmUp(c);
    try (JdvmClient client = Clients.connect(c)) {
      for (int i = 0; i < s.spawns(); i++) {
        long t0 = System.nanoTime();
        client.spawn(Clients.trueJob()).awaitEnd();
        ns[i] = System.nanoTime() - t0;
        tick("spawn-and-wait", i + 1, s.spawns());
      }
    }
    return Row.latency("spawn-and-wait, 1-proc /bin/true", ns, "median < 5 ms");
  }

  private Row throughput(Contact c, int clients) throws Exception {
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    long counted = System.nanoTime() + TimeUnit.SECONDS.toNanos(s.rateWarmUp());
    long deadline =
        counted + TimeUnit.SECONDS.toNanos(s.seconds()) + TimeUnit.MILLISECONDS.toNanos(200);
    List<Thread> threads = new ArrayList<>();
    List<JdvmClient> conns = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      conns.add(Clients.connect(c));
    }
    for (JdvmClient client : conns) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                      while (System.nanoTime() < deadline) {
                        client.spawn(Clients.trueJob()).awaitEnd();
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
    long end = showThroughput(threads, clients, counted, done);
    for (JdvmClient client : conns) {
      client.close();
    }
    return throughputRow(clients, done.get(), failed.get(), end - counted);
  }

  /** Shows the jobs counted until the clients' threads end; when they ended. */
  private long showThroughput(List<Thread> threads, int clients, long counted, AtomicLong done)
      throws InterruptedException {
    while (threads.stream().anyMatch(Thread::isAlive)) {
      Thread.sleep(250);
      progress.printf(
          "\r  throughput, %2d clients: %s",
          clients,
          System.nanoTime() < counted ? "warming up" : String.format("%6d jobs", done.get()));
    }
    long end = System.nanoTime();
    progress.println();
    return end;
  }

  private Row throughputRow(int clients, long jobs, long failed, long windowNs) {
    double perSecond = jobs / (windowNs / 1e9);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("clients", clients);
    data.put("warmUpSeconds", s.rateWarmUp());
    data.put("jobs", jobs);
    data.put("jobsPerSecond", Math.round(perSecond));
    data.put("failedClients", failed);
    return new Row(
        "job throughput, " + clients + " concurrent client" + (clients > 1 ? "s" : ""),
        String.format(Locale.ROOT, "%.0f jobs/s", perSecond),
        clients == 8 ? ">= 300 jobs/s" : "",
        data);
  }

  private Row allocationRoundTrips(Contact c) throws PmixException {
    long[] ns = new long[s.allocs()];
    try (JdvmClient client = Clients.connect(c)) {
      for (int i = -20; i < s.allocs(); i++) {
        long t0 = System.nanoTime();
        AllocationResult r = client.allocate(AllocationRequest.newAllocation().nodes(1).build());
        client.allocate(AllocationRequest.release().allocId(r.allocId()).build());
        if (i >= 0) {
          ns[i] = System.nanoTime() - t0;
          tick("NEW+RELEASE", i + 1, s.allocs());
        }
      }
    }
    return Row.latency("allocation NEW+RELEASE round trip", ns, "median < 1 ms");
  }

  /**
   * Times fresh {@code ./jdvm run -n 1 /bin/true} commands, start to exit, through the launcher
   * ({@code JDVM_HOME} names the checkout the launcher set this JVM up from).
   */
  private Row freshRun() throws IOException, InterruptedException {
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
      exitOf(new ProcessBuilder(cmd).inheritIO());
    }
    long[] ns = new long[s.cliRuns()];
    for (int i = 0; i < s.cliRuns(); i++) {
      long t0 = System.nanoTime();
      int status =
          exitOf(
              new ProcessBuilder(cmd)
                  .redirectErrorStream(true)
                  .redirectOutput(ProcessBuilder.Redirect.DISCARD));
      ns[i] = System.nanoTime() - t0;
      if (status != 0) {
        progress.println("  fresh 'jdvm run' exited " + status);
      }
      tick("fresh 'jdvm run -n 1 /bin/true'", i + 1, s.cliRuns());
    }
    return Row.latency("fresh 'jdvm run -n 1 /bin/true', start to exit", ns, "median < 100 ms");
  }

  /** The exit status of {@code pb}'s process, -1 if not ended within 60 s; it is ended anyway. */
  private static int exitOf(ProcessBuilder pb) throws IOException, InterruptedException {
    Process p = pb.start();
    try {
      return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : -1;
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private void tick(String what, int i, int n) {
    if (i == n || i % Math.max(1, n / 20) == 0) {
      progress.printf("\r  %s: %d/%d", what, i, n);
      if (i == n) {
        progress.println();
      }
    }
  }
}
