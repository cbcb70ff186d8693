package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdvm run}'s node-level placement ({@code -N/--npernode}, {@code --map-by ppr:N:node},
 * {@code --oversubscribe}, {@code --nooversubscribe}, {@code --rank-by node}) against real DVMs of
 * four virtual nodes on this host, checked from inside the processes: each prints its rank and
 * {@code JDVM_NODE}, the node the DVM started it on. One DVM has two slots per node (so a cap of
 * one per node shows), the other one slot per node (4 slots, so oversubscription shows).
 */
class RunPlacementTest {
  @TempDir static Path dir;
  private static Path twoSlots;
  private static Path oneSlot;
  private static DvmServer wide;
  private static DvmServer narrow;

  private static final String PRINT = "echo rank $PMIX_RANK $JDVM_NODE";

  @BeforeAll
  static void startDvms() throws Exception {
    twoSlots = Files.createDirectories(dir.resolve("two"));
    oneSlot = Files.createDirectories(dir.resolve("one"));
    wide = DvmServer.start(DvmConfig.embedded("maptwo", 4, 2, 0, twoSlots).withShrinkGrace(300));
    narrow = DvmServer.start(DvmConfig.embedded("mapone", 4, 1, 0, oneSlot).withShrinkGrace(300));
  }

  @AfterAll
  static void stopDvms() {
    if (wide != null) {
      wide.close();
    }
    if (narrow != null) {
      narrow.close();
    }
  }

  private static CliRun run(Path dvm, String... args) {
    List<String> all = new ArrayList<>(List.of("run", "--dir", dvm.toString()));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** Each rank's node, by rank, from a run's output. */
  private static List<String> nodesOf(Path dvm, String... options) {
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("--", "sh", "-c", PRINT));
    CliRun r = run(dvm, args.toArray(String[]::new));
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

  @Test
  void npernodeOnePutsOneRankOnEachNode() {
    assertThat(new java.util.HashSet<>(nodesOf(twoSlots, "-n", "4")))
        .as("without -N two nodes' slots hold the four")
        .hasSize(2);
    assertThat(nodesOf(twoSlots, "-n", "4", "-N", "1"))
        .containsExactly("node0", "node1", "node2", "node3");
    assertThat(nodesOf(twoSlots, "-n", "4", "--npernode", "1", "--map-by", "node"))
        .containsExactly("node0", "node1", "node2", "node3");
  }

  @Test
  void mapByPprNPerNodeCapsEachNode() {
    assertThat(nodesOf(twoSlots, "-n", "3", "--map-by", "ppr:1:node"))
        .containsExactly("node0", "node1", "node2");
  }

  @Test
  void moreProcessesThanTheCapAllowsAreRefusedBeforeAnyStarts() {
    CliRun r = run(twoSlots, "-n", "5", "-N", "1", "--", "sh", "-c", "echo started");
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err()).contains("PMIX_ERR_OUT_OF_RESOURCE");
    assertThat(r.out()).doesNotContain("started");
  }

  @Test
  void oversubscribeRunsSixOnFourSlotsSpreadEvenly() {
    assertThat(nodesOf(oneSlot, "-n", "6", "--oversubscribe"))
        .containsExactly("node0", "node0", "node1", "node1", "node2", "node3");
    assertThat(nodesOf(oneSlot, "-n", "6", "--map-by", "node:OVERSUBSCRIBE"))
        .containsExactly("node0", "node1", "node2", "node3", "node0", "node1");
  }

  @Test
  void withoutOversubscribeMoreProcessesThanSlotsAreRefusedBeforeAnyStarts() {
    for (List<String> opts : List.<List<String>>of(List.of(), List.of("--nooversubscribe"))) {
      List<String> args = new ArrayList<>(List.of("-n", "6"));
      args.addAll(opts);
      args.addAll(List.of("--", "sh", "-c", "echo started"));
      CliRun r = run(oneSlot, args.toArray(String[]::new));
      assertThat(r.status()).as(opts + r.out() + r.err()).isEqualTo(Main.EXIT_REFUSED);
      assertThat(r.err()).contains("PMIX_ERR_OUT_OF_RESOURCE");
      assertThat(r.out()).doesNotContain("started");
    }
    assertThat(nodesOf(oneSlot, "-n", "4", "--nooversubscribe")).hasSize(4);
  }

  @Test
  void rankByNodeDealsRanksOneNodeAtATimeOverThePlacedProcesses() {
    assertThat(nodesOf(twoSlots, "-n", "4", "-N", "2"))
        .as("placed by slot, ranked by slot")
        .containsExactly("node0", "node0", "node1", "node1");
    assertThat(nodesOf(twoSlots, "-n", "4", "-N", "2", "--rank-by", "node"))
        .containsExactly("node0", "node1", "node0", "node1");
    List<String> plain = nodesOf(twoSlots, "-n", "4", "--rank-by", "node");
    assertThat(plain.get(0)).as("%s", plain).isNotEqualTo(plain.get(1)).isEqualTo(plain.get(2));
    assertThat(plain.get(1)).as("%s", plain).isEqualTo(plain.get(3));
  }

  @Test
  void perObjectCountsAreRefusedAsNotSupported() {
    CliRun r = run(twoSlots, "--map-by", "ppr:1:socket", "--", "sh", "-c", "echo started");
    assertThat(r.status()).as(r.err()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(r.err()).contains("PMIX_ERR_NOT_SUPPORTED");
    assertThat(r.out()).doesNotContain("started");
  }
}
