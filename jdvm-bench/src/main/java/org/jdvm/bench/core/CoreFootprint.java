package org.jdvm.bench.core;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.CoreConfig;

/**
 * Measures the heap the core needs for 100,000 nodes and 1,000,000 live jobs (target: under 1 GiB;
 * the measurement is in jdvm-core/README.md "Measured cost"). 100 tools each own 100 four-node
 * reservations (10,000 in all, 40,000 nodes); every job is a one-process job that is spawned and
 * launched, half into a reservation (so owner sets hold 500,000 namespaces) and half into the
 * default session, each the child of a tool or of an earlier job so the genealogy has depth too.
 * The heap is measured after full collections, before and after building.
 *
 * <p>Run: {@code java -Xmx1g -cp 'jdvm-bench/target/classes:jdvm-bench/target/lib/*'
 * org.jdvm.bench.core.CoreFootprint} (with {@code -Xmx1g} the run itself shows the state fits).
 */
public final class CoreFootprint {
  static final int NODES = 100_000;
  static final int SLOTS = 16;
  static final int TOOLS = 100;
  static final int RESERVATIONS_PER_TOOL = 100;
  static final int JOBS = 1_000_000;

  private CoreFootprint() {}

  public static void main(String[] args) {
    long before = usedHeapAfterGc();
    long start = System.nanoTime();
    Fixtures dvm = new Fixtures(CoreConfig.of("bench", Fixtures.nodes(NODES, SLOTS)));
    List<String> tools = new ArrayList<>();
    List<String> reservations = new ArrayList<>();
    int node = 1;
    for (int t = 0; t < TOOLS; t++) {
      String tool = dvm.tool();
      tools.add(tool);
      for (int r = 0; r < RESERVATIONS_PER_TOOL; r++) {
        List<String> four = List.of("n" + node++, "n" + node++, "n" + node++, "n" + node++);
        reservations.add(dvm.reserve(tool, null, four));
      }
    }
    List<String> recent = new ArrayList<>(tools);
    for (int j = 0; j < JOBS; j++) {
      int t = j % TOOLS;
      int k = j / TOOLS;
      if (k % 2 == 0) {
        String reservation = reservations.get(t * RESERVATIONS_PER_TOOL + (k / 2) % 100);
        dvm.spawnLaunched(tools.get(t), reservation);
      } else if (k % 4 == 1) {
        recent.set(t, dvm.spawnLaunched(tools.get(t), ""));
      } else {
        dvm.spawnLaunched(recent.get(t), null);
      }
    }
    long built = System.nanoTime() - start;
    long after = usedHeapAfterGc();
    System.out.printf(
        "core state: %,d nodes, %,d reservations, %,d live jobs%n",
        dvm.core.view().nodes().size(),
        dvm.core.view().allocations().size(),
        dvm.core.view().jobs().size());
    System.out.printf("built through handle() in %.1f s%n", built / 1e9);
    System.out.printf(
        "heap used by the core: %,d bytes = %.1f MiB (%.0f bytes per job)%n",
        after - before, (after - before) / 1048576.0, (after - before) / (double) JOBS);
    System.out.printf("max heap: %.0f MiB%n", Runtime.getRuntime().maxMemory() / 1048576.0);
  }

  private static long usedHeapAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
