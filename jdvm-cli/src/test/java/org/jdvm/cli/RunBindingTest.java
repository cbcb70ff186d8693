package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.jdvm.host.os.Affinity;
import org.jdvm.host.topology.CpuList;
import org.jdvm.host.topology.Topology;
import org.jdvm.host.topology.TopologyReader;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm run}'s placement and binding options against a real DVM of one virtual node (4 slots)
 * on this host, checked from inside the processes: each prints its own {@code Cpus_allowed_list}.
 * The expectations are computed from this host's topology, so they hold on any host with at least
 * two cores (the suite's has two).
 */
class RunBindingTest {
  @TempDir static Path dir;
  private static DvmServer server;
  private static Topology host;

  private static final String PRINT =
      "echo rank $PMIX_RANK $(grep Cpus_allowed_list /proc/self/status | cut -f2)";

  @BeforeAll
  static void startDvm() throws Exception {
    host = TopologyReader.host();
    Assumptions.assumeTrue(
        host.count(Topology.Level.CORE) >= 2, "binding tests need two cores here");
    server = DvmServer.start(DvmConfig.embedded("bindtest", 1, 4, 0, dir).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvm() {
    if (server != null) {
      server.close();
    }
  }

  private static CliRun run(String... args) {
    List<String> all = new ArrayList<>(List.of("run", "--dir", dir.toString()));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** Each rank's cpu list, by rank, from a run's output. */
  private static List<String> cpusOf(String... options) {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("--", "sh", "-c", PRINT));
    CliRun r = run(args.toArray(String[]::new));
    assertThat(r.status()).as(r.err()).isZero();
    TreeMap<Integer, String> byRank = new TreeMap<>();
    for (String line : r.out().split("\n")) {
      String[] w = line.strip().split(" ");
      if (w.length == 3 && w[0].equals("rank")) {
        byRank.put(Integer.parseInt(w[1]), w[2]);
      }
    }
    return new ArrayList<>(byRank.values());
  }

  private static String core(int i) {
    return CpuList.format(host.objects(Topology.Level.CORE).get(i));
  }

  private static String thread(int i) {
    return CpuList.format(host.objects(Topology.Level.HWTHREAD).get(i));
  }

  private static String all() {
    return CpuList.format(host.cpuSet());
  }

  @Test
  void bindToCoreMapByCorePutsEachRankOnItsOwnCore() {
    assertThat(cpusOf("-n", "2", "--bind-to", "core", "--map-by", "core"))
        .containsExactly(core(0), core(1));
  }

  @Test
  void twoProcessesAreBoundToACoreEachByDefaultAsMpirunBindsThem() {
    assertThat(cpusOf("-n", "2")).containsExactly(core(0), core(1));
  }

  @Test
  void bindToNoneLeavesEveryProcessTheWholeNode() throws Exception {
    assertThat(cpusOf("-n", "2", "--bind-to", "none")).containsExactly(all(), all());
    assertThat(all()).isEqualTo(CpuList.format(Affinity.ofThisThread()));
  }

  @Test
  void bindToHwthreadMapByHwthread() {
    assertThat(cpusOf("-n", "2", "--bind-to", "hwthread", "--map-by", "hwthread"))
        .containsExactly(thread(0), thread(1));
  }

  @Test
  void bindToSocketAndNumaAndMapBySocketAndNuma() {
    String pkg0 = CpuList.format(host.objects(Topology.Level.PACKAGE).get(0));
    String numa0 = CpuList.format(host.objects(Topology.Level.NUMA).get(0));
    assertThat(cpusOf("-n", "1", "--bind-to", "socket")).containsExactly(pkg0);
    assertThat(cpusOf("-n", "1", "--map-by", "socket")).containsExactly(pkg0);
    assertThat(cpusOf("-n", "1", "--bind-to", "numa", "--map-by", "numa")).containsExactly(numa0);
    assertThat(cpusOf("-n", "1", "--bind-to", "package", "--map-by", "slot")).containsExactly(pkg0);
  }

  @Test
  void cpusPerProcAndPeGiveEachProcessSeveralCores() {
    String two = CpuList.format(unionOfCores(0, 1));
    assertThat(cpusOf("-n", "1", "-c", "2")).containsExactly(two);
    assertThat(cpusOf("-n", "1", "--map-by", "slot:PE=2")).containsExactly(two);
    assertThat(cpusOf("-n", "1", "--cpus-per-proc", "1", "--bind-to", "core"))
        .containsExactly(core(0));
  }

  private static java.util.BitSet unionOfCores(int a, int b) {
    java.util.BitSet s = (java.util.BitSet) host.objects(Topology.Level.CORE).get(a).clone();
    s.or(host.objects(Topology.Level.CORE).get(b));
    return s;
  }

  @Test
  void moreProcessesThanCoresBoundToCoreIsRefusedBeforeAnyStartsUnlessOverloadAllowed() {
    int cores = host.count(Topology.Level.CORE);
    Assumptions.assumeTrue(cores < 4, "the node has 4 slots: it needs fewer cores than that");
    String n = Integer.toString(cores + 1);
    CliRun refused = run("-n", n, "--bind-to", "core", "--", "sh", "-c", "echo started");
    assertThat(refused.status()).as(refused.out() + refused.err()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(refused.out()).doesNotContain("started");
    assertThat(refused.err())
        .contains("cannot bind " + n + " processes to cores: it has " + cores + " cores");
    assertThat(cpusOf("-n", n, "--bind-to", "core:overload-allowed")).hasSize(cores + 1);
    // without a binding asked, an oversubscribed node binds nothing, as mpirun
    assertThat(cpusOf("-n", n)).containsOnly(all());
  }

  @Test
  void morePeThanTheNodeHasIsRefusedBeforeAnyStarts() {
    int cores = host.count(Topology.Level.CORE);
    CliRun refused =
        run("-n", "1", "-c", Integer.toString(cores + 1), "--", "sh", "-c", "echo started");
    assertThat(refused.status()).as(refused.err()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(refused.out()).doesNotContain("started");
    assertThat(refused.err()).contains("cannot give a process " + (cores + 1) + " cores");
  }

  @Test
  void reportBindingsPrintsOneLinePerRankInMpirunsWords() {
    CliRun r = run("-n", "2", "--bind-to", "core", "--report-bindings", "--", "true");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.err())
        .containsPattern("\\[node0:[0-9]+\\] Rank 0 bound to package\\[0\\]\\[core:0\\]")
        .containsPattern("\\[node0:[0-9]+\\] Rank 1 bound to package\\[0\\]\\[core:1\\]");
    CliRun none = run("-n", "1", "--bind-to", "none", "--report-bindings", "--", "true");
    assertThat(none.err()).contains("Rank 0 is not bound (or bound to all available processors)");
  }

  @Test
  void malformedOptionsAreUsageErrors() {
    assertThat(run("--bind-to", "l9cache", "--", "true").status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(run("--map-by", "board", "--", "true").status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(run("-c", "0", "--", "true").status()).isEqualTo(Main.EXIT_USAGE);
    CliRun both = run("-c", "2", "--map-by", "core:PE=2", "--", "true");
    assertThat(both.status()).isEqualTo(Main.EXIT_USAGE);
    assertThat(both.err()).contains("give cpus per process once");
    assertThat(run("--oversubscribe", "--nooversubscribe", "--", "true").status())
        .isEqualTo(Main.EXIT_USAGE);
  }

  @Test
  void whatTheDvmCannotDoYetIsRefusedAsNotSupported() {
    CliRun ppr = run("--map-by", "ppr:1:socket", "--", "true");
    assertThat(ppr.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(ppr.err()).contains("PMIX_ERR_NOT_SUPPORTED");
    assertThat(run("--rank-by", "socket", "--", "true").status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(run("--rank-by", "slot", "--", "true").status()).isZero();
    assertThat(run("--nooversubscribe", "--", "true").status()).isZero();
  }
}
