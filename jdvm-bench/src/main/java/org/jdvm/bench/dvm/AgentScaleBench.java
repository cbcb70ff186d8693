package org.jdvm.bench.dvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.jdvm.agent.SimulatedAgent;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.agent.relay.PmixRelay;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.client.WireUp;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.AgentStarter;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.assembly.DvmServer;

/**
 * {@code jdvm bench --agents 10,100,1000} (docs/cli.md "jdvm bench"): the real controller, in this
 * JVM, against N simulated node agents ({@link SimulatedAgent}) that all live in one child JVM and
 * reach it over real loopback sockets — started through the same start-up path as ssh agents. For
 * each N it measures the DVM's start (every agent joined), a launch of one process per node waited
 * to its end, and a job whose N ranks (in-process Java PMIx clients in the child, each connected to
 * its simulated agent's PMIx relay, or with {@code JDVM_BENCH_DIRECT=1} straight to the controller)
 * commit and fence with data; and the controller's CPU time per node per launch. Benchmarks are not
 * tests: nothing here asserts a time.
 */
public final class AgentScaleBench {
  private AgentScaleBench() {}

  private static final boolean TRACE = "1".equals(System.getenv("JDVM_BENCH_TRACE"));

  /**
   * One measured size: the DVM's start (every agent joined), the median launch of one process per
   * node waited to its end, the median fenced job, the DVM's close, and the controller's CPU per
   * node of a launch and of a fenced job.
   */
  public record Result(
      int nodes,
      long startMs,
      double launchMs,
      double fenceJobMs,
      double teardownMs,
      double cpuUsPerNode,
      double fenceCpuUsPerNode) {
    Result withTeardown(double ms) {
      return new Result(nodes, startMs, launchMs, fenceJobMs, ms, cpuUsPerNode, fenceCpuUsPerNode);
    }
  }

  static List<Result> run(List<Integer> sizes, int rounds, PrintStream progress)
      throws IOException, PmixException {
    List<Result> out = new ArrayList<>();
    for (int n : sizes) {
      out.add(one(n, rounds, progress));
    }
    return out;
  }

  private static Result one(int n, int rounds, PrintStream progress)
      throws IOException, PmixException {
    Path dir = Files.createTempDirectory("jdvm-agent-bench");
    List<HostList.Host> hosts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      hosts.add(new HostList.Host("sim" + i, 1));
    }
    try {
      return measure(n, rounds, progress, dir, hosts);
    } finally {
      org.jdvm.host.JobDirectories.removeTree(dir);
    }
  }

  private static Result measure(
      int n, int rounds, PrintStream progress, Path dir, List<HostList.Host> hosts)
      throws IOException, PmixException {
    try (ChildStarter starter = new ChildStarter()) {
      RemoteHosts remote =
          new RemoteHosts(
              hosts,
              starter,
              new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
              List.of("unused"),
              // 30 missed heartbeats, not the default 10: on this 2-core host shared with other
              // loads, a 1,000-node fenced job starved a quarter of the simulated agents'
              // heartbeats for 10 s, their nodes went down and the job aborted
              // and one heartbeat per agent every second up to 2,000 agents, every n/2 ms past
              // it: at 10,000 agents, 10,000 heartbeats a second each way left every node
              // unheard for 30 s during the first launch, and all were declared down
              new AgentHub.Settings(Math.max(1000, n / 2), 30),
              600_000, // joins of 10,000 agents on a loaded 2-core host take minutes
              line -> {});
      long t0 = System.nanoTime();
      DvmServer server =
          DvmServer.start(
              DvmConfig.embedded("agentbench", 1, 1, 0, dir)
                  .withScheduler(DvmConfig.SchedulerKind.NONE)
                  .limitedBy(org.jdvm.core.Limits.DEFAULT.with("nodes-in-dvm", n + 1)),
              remote);
      long startMs = (System.nanoTime() - t0) / 1_000_000;
      progress.printf(
          Locale.ROOT, "agents=%d: DVM with %d agents started in %d ms%n", n, n, startMs);
      Result r;
      try (JdvmClient tool =
          JdvmClient.connector().dir(dir).output(OutputHandler.DISCARD).connect()) {
        r = jobs(tool, n, rounds, startMs, progress);
      } catch (PmixException | RuntimeException e) {
        server.close();
        throw e;
      }
      long t1 = System.nanoTime();
      server.close(); // Bye to every agent, whose processes end with it
      double teardownMs = (System.nanoTime() - t1) / 1e6;
      progress.printf(Locale.ROOT, "agents=%d: teardown %.1f ms%n", n, teardownMs);
      return r.withTeardown(teardownMs);
    }
  }

  /** The launches and the fenced jobs of the DVM of {@code n} agents that {@code tool} reaches. */
  private static Result jobs(JdvmClient tool, int n, int rounds, long startMs, PrintStream progress)
      throws PmixException {
    SpawnRequest launch =
        SpawnRequest.of("true").procs(n).mapBy("node").forwardOutput(false).build();
    tool.spawn(launch).awaitEnd(); // warm-up
    Duration cpu0 = cpu();
    long[] launches = new long[rounds];
    for (int r = 0; r < rounds; r++) {
      long s = System.nanoTime();
      tool.spawn(launch).awaitEnd();
      launches[r] = System.nanoTime() - s;
    }
    double cpuUs = cpu().minus(cpu0).toNanos() / 1000.0 / rounds / n;
    progress.printf(
        Locale.ROOT,
        "agents=%d: launch 1/node %.1f ms (median of %d), controller cpu %.1f us/node%n",
        n,
        median(launches),
        rounds,
        cpuUs);
    String tooMany = RelayThreads.missing(n);
    if (tooMany != null) {
      progress.printf(Locale.ROOT, "agents=%d: fenced job not run: %s%n", n, tooMany);
      return new Result(n, startMs, median(launches), Double.NaN, 0, cpuUs, Double.NaN);
    }
    int fenceRounds = Math.max(1, rounds / 2);
    Duration fenceCpu0 = cpu();
    long[] fences = fences(tool, n, fenceRounds, progress);
    double fenceCpuUs = cpu().minus(fenceCpu0).toNanos() / 1000.0 / fenceRounds / n;
    Result res = new Result(n, startMs, median(launches), median(fences), 0, cpuUs, fenceCpuUs);
    progress.printf(
        Locale.ROOT,
        "agents=%d: launch 1/node %.1f ms, fenced job %.1f ms, controller cpu %.1f us/node"
            + " (fenced job: %.1f us/node)%n",
        n,
        res.launchMs(),
        res.fenceJobMs(),
        res.cpuUsPerNode(),
        res.fenceCpuUsPerNode());
    return res;
  }

  /** {@code rounds} jobs whose {@code n} ranks commit and fence with data; their times. */
  private static long[] fences(JdvmClient tool, int n, int rounds, PrintStream progress)
      throws PmixException {
    SpawnRequest fence =
        SpawnRequest.of("fence", Integer.toString(n))
            .procs(n)
            .mapBy("node")
            .forwardOutput(false)
            .build();
    long[] fences = new long[rounds];
    for (int r = 0; r < fences.length; r++) {
      long s = System.nanoTime();
      if (TRACE) {
        progress.println("trace-start " + s + " " + cpu().toMillis() + " " + childCpuMs());
      }
      var end = tool.spawn(fence).awaitEnd();
      fences[r] = System.nanoTime() - s;
      if (TRACE) {
        progress.println(
            "trace-end " + System.nanoTime() + " " + cpu().toMillis() + " " + childCpuMs());
      }
      if (end.status() != 0) {
        progress.println("agents=" + n + ": fenced job ended with status " + end.status());
      }
    }
    return fences;
  }

  /** The simulated hosts' JVMs' CPU time in ms, for the trace. */
  private static long childCpuMs() {
    return ProcessHandle.current()
        .children()
        .mapToLong(h -> h.info().totalCpuDuration().map(Duration::toMillis).orElse(0L))
        .sum();
  }

  private static Duration cpu() {
    return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  private static double median(long[] ns) {
    long[] s = ns.clone();
    Arrays.sort(s);
    return s[s.length / 2] / 1e6;
  }

  /**
   * Starts "agents" in child JVMs ({@link SimulatedHosts}), at most {@link #AGENTS_PER_CHILD} in
   * each, so that no child reaches this host's limit on open files (an agent with its relay holds a
   * link, a listener and a connection pair): the first start of each child launches it and hands it
   * the secret; each start is then one line, {@code CONTROLLER NODE}, on its standard input.
   */
  static final class ChildStarter implements AgentStarter, AutoCloseable {
    static final int AGENTS_PER_CHILD = 2_500;

    private final List<Process> children = new ArrayList<>();
    private final java.util.Map<String, CompletableFuture<Integer>> ends =
        new java.util.concurrent.ConcurrentHashMap<>();
    private OutputStream in;
    private int started;

    @Override
    public synchronized Handle start(String host, List<String> argv, byte[] secret)
        throws IOException {
      if (started++ % AGENTS_PER_CHILD == 0) {
        Process child =
            new ProcessBuilder(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    SimulatedHosts.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        children.add(child);
        Thread.ofVirtual().start(() -> readEnds(child));
        in = child.getOutputStream();
        in.write(secret);
      }
      String controller = argv.get(argv.indexOf("--controller") + 1);
      in.write((controller + " " + host + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      Process p = children.getLast();
      CompletableFuture<Integer> end = ends.computeIfAbsent(host, h -> new CompletableFuture<>());
      return new Handle() {
        @Override
        public long pid() {
          return p.pid();
        }

        /** The simulated agent's end, as its child reports it: its "launcher" is the agent. */
        @Override
        public CompletableFuture<Integer> onExit() {
          return end;
        }

        @Override
        public String lastOutput() {
          return "";
        }

        @Override
        public void stop() {}
      };
    }

    /** Reads a child's lines {@code ended NODE}: that simulated agent's link closed. */
    private void readEnds(Process child) {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("ended ")) {
            ends.computeIfAbsent(line.substring(6), h -> new CompletableFuture<>()).complete(0);
          }
        }
      } catch (IOException e) {
        // the child ended
      }
      ends.values().forEach(f -> f.complete(0));
    }

    @Override
    public synchronized void close() {
      for (Process child : children) {
        try {
          child.getOutputStream().close();
        } catch (IOException e) {
          // it is ending anyway
        }
        child.destroy();
      }
      children.forEach(c -> c.onExit().join());
    }
  }

  /** The child JVM: many simulated agents; ends when its standard input closes. */
  static final class SimulatedHosts {
    /**
     * Ranks connecting at once: without the relay each rank has its own connection to the endpoint,
     * whose listen backlog would drop a thousand simultaneous connects; through the relays, a
     * thousand relays opening at once in one JVM starved the simulated agents' heartbeats on this
     * 2-core host (nodes were declared down, the job aborted).
     */
    private static final boolean DIRECT = "1".equals(System.getenv("JDVM_BENCH_DIRECT"));

    private static final java.util.concurrent.Semaphore CONNECTS =
        new java.util.concurrent.Semaphore(32);

    private static final boolean TRACE = "1".equals(System.getenv("JDVM_BENCH_TRACE"));

    private static final int PAYLOAD_BYTES = 1024;

    private static final int JOIN_ATTEMPTS = 5;

    /**
     * Agents joining at once, per child JVM: 10,000 simultaneous joins overflowed the controller's
     * accept backlog and its hello timeouts (after 6 minutes about 500 had joined, the rest
     * retrying); ssh or srun starts are paced by their launchers anyway.
     */
    private static final java.util.concurrent.Semaphore JOINS =
        new java.util.concurrent.Semaphore(64);

    private static Credentials credentials;

    public static void main(String[] args) throws Exception {
      BufferedReader r =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
      credentials = Credentials.fromSecretHex(r.readLine());
      List<SimulatedAgent> agents = new ArrayList<>();
      String line;
      while ((line = r.readLine()) != null) {
        String[] w = line.split(" ");
        int colon = w[0].lastIndexOf(':');
        InetSocketAddress controller =
            new InetSocketAddress(
                w[0].substring(0, colon), Integer.parseInt(w[0].substring(colon + 1)));
        String node = w[1];
        Thread.ofVirtual()
            .start(
                () -> {
                  for (int attempt = 1; ; attempt++) {
                    JOINS.acquireUninterruptibly();
                    try {
                      SimulatedAgent a =
                          SimulatedAgent.join(
                              controller, node, credentials, SimulatedHosts::launch);
                      a.ended().thenRun(() -> ended(node));
                      synchronized (agents) {
                        agents.add(a);
                      }
                      return;
                    } catch (IOException e) {
                      // as a real agent, try again: a loaded controller may answer a hello late
                      System.err.println("simulated agent " + node + ": " + e.getMessage());
                      if (attempt == JOIN_ATTEMPTS) {
                        return;
                      }
                    } finally {
                      JOINS.release();
                    }
                  }
                });
      }
      synchronized (agents) {
        agents.forEach(SimulatedAgent::close);
      }
      System.exit(0);
    }

    /** Tells the bench that {@code node}'s agent ended (its link closed). */
    private static void ended(String node) {
      synchronized (System.out) {
        System.out.println("ended " + node);
        System.out.flush();
      }
    }

    /** {@code true}: ends at once; {@code fence}: a Java PMIx rank that commits and fences. */
    private static void launch(SimulatedAgent agent, LinkMessage.Launch l) {
      long launched = System.nanoTime();
      if (!l.argv().get(0).equals("fence")) {
        agent.exited(l.nspace(), l.rank(), 0);
        return;
      }
      Thread.ofVirtual().start(() -> rank(agent, l, launched));
    }

    /** One rank of the fenced job: connect, commit 1 KiB, fence, get the next rank's key. */
    private static void rank(SimulatedAgent agent, LinkMessage.Launch l, long launched) {
      int status = 0;
      JdvmClient client;
      long acquired;
      try {
        // through the agent's relay, as a real agent's processes connect; direct to the
        // controller with JDVM_BENCH_DIRECT=1, as before agents had relays
        PmixRelay relay = DIRECT ? null : agent.relay(l.environment(), credentials);
        String dvm = relay != null ? relay.uri() : l.environment().get("JDVM_URI");
        CONNECTS.acquireUninterruptibly();
        acquired = System.nanoTime();
        try {
          client =
              JdvmClient.connector()
                  .dvm(dvm)
                  .asProcess(new Proc(l.nspace(), l.rank()), l.environment().get("JDVM_CREDENTIAL"))
                  .output(OutputHandler.DISCARD)
                  .connect();
        } finally {
          CONNECTS.release();
        }
      } catch (PmixException | IOException | RuntimeException e) {
        System.err.println("rank " + l.rank() + ": " + e);
        agent.exited(l.nspace(), l.rank(), 1);
        return;
      }
      long[] at = {launched, System.nanoTime(), 0, 0, 0, acquired}; // the trace's phases
      try (JdvmClient me = client) {
        WireUp w = me.wireUp();
        w.put(WireUp.Scope.GLOBAL, "bench.k", Value.string(payload(l.rank())));
        w.commit();
        at[2] = System.nanoTime();
        w.fence(List.of(), true, 120);
        at[3] = System.nanoTime();
        int other = (l.rank() + 1) % size(l);
        Value v = w.get(new Proc(l.nspace(), other), "bench.k");
        if (!payload(other).equals(v.asString())) {
          throw new IllegalStateException("rank " + other + "'s key read " + v);
        }
      } catch (PmixException | RuntimeException e) {
        System.err.println("rank " + l.rank() + ": " + e);
        status = 1;
      }
      at[4] = System.nanoTime();
      if (TRACE) {
        System.err.printf(
            Locale.ROOT,
            "trace %d %d %d %d %d %d %d%n",
            l.rank(),
            at[0],
            at[1],
            at[2],
            at[3],
            at[4],
            at[5]);
      }
      agent.exited(l.nspace(), l.rank(), status);
    }

    /** The job's size, from the launch environment. */
    private static int size(LinkMessage.Launch l) {
      return Integer.parseInt(l.argv().get(1));
    }

    /** A rank's 1 KiB value. */
    static String payload(int rank) {
      String head = "v" + rank + ":";
      return head + "x".repeat(PAYLOAD_BYTES - head.length());
    }
  }
}
