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

  /** One measured size. */
  public record Result(
      int nodes, long startMs, double launchMs, double fenceJobMs, double cpuUsPerNode) {}

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
              new AgentHub.Settings(1000, 10),
              120_000,
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
      try (JdvmClient tool =
          JdvmClient.connector().dir(dir).output(OutputHandler.DISCARD).connect()) {
        return jobs(tool, n, rounds, startMs, progress);
      } finally {
        server.close();
      }
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
    long[] fences = fences(tool, n, Math.max(1, rounds / 2), progress);
    Result res = new Result(n, startMs, median(launches), median(fences), cpuUs);
    progress.printf(
        Locale.ROOT,
        "agents=%d: launch 1/node %.1f ms, fenced job %.1f ms, controller cpu %.1f us/node%n",
        n,
        res.launchMs(),
        res.fenceJobMs(),
        res.cpuUsPerNode());
    return res;
  }

  /** {@code rounds} jobs whose {@code n} ranks commit and fence with data; their times. */
  private static long[] fences(JdvmClient tool, int n, int rounds, PrintStream progress)
      throws PmixException {
    SpawnRequest fence =
        SpawnRequest.of("fence").procs(n).mapBy("node").forwardOutput(false).build();
    long[] fences = new long[rounds];
    for (int r = 0; r < fences.length; r++) {
      long s = System.nanoTime();
      var end = tool.spawn(fence).awaitEnd();
      fences[r] = System.nanoTime() - s;
      if (end.status() != 0) {
        progress.println("agents=" + n + ": fenced job ended with status " + end.status());
      }
    }
    return fences;
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
   * Starts "agents" in one child JVM ({@link #simulate}): the first start launches it and hands it
   * the secret; each start is then one line, {@code CONTROLLER NODE}, on its standard input.
   */
  static final class ChildStarter implements AgentStarter, AutoCloseable {
    private Process child;
    private OutputStream in;

    @Override
    public synchronized Handle start(String host, List<String> argv, byte[] secret)
        throws IOException {
      if (child == null) {
        child =
            new ProcessBuilder(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    SimulatedHosts.class.getName())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        in = child.getOutputStream();
        in.write(secret);
      }
      String controller = argv.get(argv.indexOf("--controller") + 1);
      in.write((controller + " " + host + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      Process p = child;
      return new Handle() {
        @Override
        public long pid() {
          return p.pid();
        }

        @Override
        public CompletableFuture<Integer> onExit() {
          return p.onExit().thenApply(Process::exitValue);
        }

        @Override
        public String lastOutput() {
          return "";
        }

        @Override
        public void stop() {}
      };
    }

    @Override
    public synchronized void close() {
      if (child != null) {
        try {
          in.close();
        } catch (IOException e) {
          // it is ending anyway
        }
        child.destroy();
        child.onExit().join();
      }
    }
  }

  /** The child JVM: many simulated agents; ends when its standard input closes. */
  static final class SimulatedHosts {
    /**
     * Ranks connecting at once: without the relay each rank has its own connection to the endpoint,
     * whose listen backlog would drop a thousand simultaneous connects; through the relays each
     * node's listener takes its own rank.
     */
    private static final boolean DIRECT = "1".equals(System.getenv("JDVM_BENCH_DIRECT"));

    private static final java.util.concurrent.Semaphore CONNECTS =
        new java.util.concurrent.Semaphore(32);

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
                  try {
                    SimulatedAgent a =
                        SimulatedAgent.join(controller, node, credentials, SimulatedHosts::launch);
                    synchronized (agents) {
                      agents.add(a);
                    }
                  } catch (IOException e) {
                    System.err.println("simulated agent " + node + ": " + e.getMessage());
                  }
                });
      }
      synchronized (agents) {
        agents.forEach(SimulatedAgent::close);
      }
      System.exit(0);
    }

    /** {@code true}: ends at once; {@code fence}: a Java PMIx rank that commits and fences. */
    private static void launch(SimulatedAgent agent, LinkMessage.Launch l) {
      if (!l.argv().get(0).equals("fence")) {
        agent.exited(l.nspace(), l.rank(), 0);
        return;
      }
      Thread.ofVirtual()
          .start(
              () -> {
                int status = 0;
                JdvmClient client;
                try {
                  // through the agent's relay, as a real agent's processes connect; direct to the
                  // controller with JDVM_BENCH_DIRECT=1, as before agents had relays
                  PmixRelay relay = DIRECT ? null : agent.relay(l.environment(), credentials);
                  String dvm = relay != null ? relay.uri() : l.environment().get("JDVM_URI");
                  CONNECTS.acquireUninterruptibly();
                  try {
                    client =
                        JdvmClient.connector()
                            .dvm(dvm)
                            .asProcess(
                                new Proc(l.nspace(), l.rank()),
                                l.environment().get("JDVM_CREDENTIAL"))
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
                try (JdvmClient me = client) {
                  WireUp w = me.wireUp();
                  w.put(WireUp.Scope.GLOBAL, "bench.k", Value.string("v" + l.rank()));
                  w.commit();
                  w.fence(List.of(), true, 120);
                } catch (PmixException | RuntimeException e) {
                  System.err.println("rank " + l.rank() + ": " + e);
                  status = 1;
                }
                agent.exited(l.nspace(), l.rank(), status);
              });
    }
  }
}
