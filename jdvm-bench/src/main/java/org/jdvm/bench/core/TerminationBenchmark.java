package org.jdvm.bench.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.Report;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Draining a 1,000,000-job genealogy of depth 20 under CHILD reservations (target: under 5 µs per
 * termination, the whole drain under 5 s). A tool spawns {@value #ROOTS} root jobs; each root
 * reserves one node with PMIX_ALLOC_INHERIT_CHILD and spawns {@value #CHAINS} chains of {@value
 * #CHAIN} jobs into it, each job the parent of the next: depth 20 counting the root, and {@value
 * #JOBS} jobs in all. The drain reports every process exited, roots first, then level by level, so
 * every root terminates while its descendants live and each reservation drains (and is released) at
 * the last of its 988 descendants. One invocation is the whole drain; the score is per termination,
 * and the whole drain is that times {@value #JOBS}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class TerminationBenchmark {
  static final int ROOTS = 1012;
  static final int CHAINS = 52;
  static final int CHAIN = 19;
  static final int JOBS = ROOTS * (1 + CHAINS * CHAIN);

  private Fixtures dvm;

  /** Every job, roots first, then level by level. */
  private List<String> order;

  /**
   * Builds a fresh genealogy for each drain. The previous one is dropped and collected first, so
   * its garbage is not collected in the middle of the measured drain.
   */
  @Setup(Level.Invocation)
  public void build() {
    dvm = null;
    order = null;
    System.gc();
    dvm = new Fixtures(ROOTS + 1, 1000);
    String tool = dvm.tool();
    List<String> roots = new ArrayList<>(ROOTS);
    List<List<String>> levels = new ArrayList<>();
    for (int r = 0; r < ROOTS; r++) {
      String root = dvm.spawnLaunched(tool, null);
      roots.add(root);
      String reservation = dvm.reserve(root, 2, List.of("n" + (r + 1)));
      for (int c = 0; c < CHAINS; c++) {
        String parent = root;
        for (int d = 0; d < CHAIN; d++) {
          parent = dvm.spawnLaunched(parent, d == 0 ? reservation : null);
          if (levels.size() <= d) {
            levels.add(new ArrayList<>());
          }
          levels.get(d).add(parent);
        }
      }
    }
    order = new ArrayList<>(JOBS);
    order.addAll(roots);
    levels.forEach(order::addAll);
    if (order.size() != JOBS) {
      throw new IllegalStateException(order.size() + " jobs, expected " + JOBS);
    }
  }

  @Benchmark
  @OperationsPerInvocation(JOBS)
  public int drain() {
    for (String job : order) {
      dvm.handle(new Report.ProcExited(job, 0, 0, 0));
    }
    int left = dvm.core.view().allocations().size();
    if (left != 0) {
      throw new IllegalStateException(left + " reservations did not drain");
    }
    return left;
  }
}
