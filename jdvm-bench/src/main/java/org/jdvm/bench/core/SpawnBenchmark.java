package org.jdvm.bench.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.Change;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.pmix.Proc;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Spawning a one-process job into a 4-node reservation (target: under 10 µs per {@code handle},
 * independent of the pool's size). The pool has {@code poolSize} start-up nodes, 40% of them in
 * {@code poolSize / 10} four-node reservations owned by one tool; 1,000 nodes (100 reservations)
 * against 100,000 nodes (10,000 reservations) shows the cost does not depend on the pool.
 *
 * <p>{@code spawn} times the spawn alone (the job is launched and reaped outside the measurement,
 * which needs a per-invocation teardown, so it is sampled); {@code spawnLaunchExit} times the whole
 * life of the job, spawn, launch report and exit report, and reports the mean per {@code handle}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 6, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class SpawnBenchmark {
  @Param({"1000", "100000"})
  public int poolSize;

  private Fixtures dvm;
  private List<String> reservations;
  private Proc owner;
  private int next;
  private Outcome spawned;

  @Setup(Level.Trial)
  public void build() {
    dvm = new Fixtures(poolSize, 4);
    String tool = dvm.tool();
    owner = new Proc(tool, 0);
    reservations = new ArrayList<>();
    int count = poolSize / 10;
    for (int r = 0; r < count; r++) {
      List<String> nodes = new ArrayList<>(4);
      for (int k = 0; k < 4; k++) {
        nodes.add("n" + (1 + 4 * r + k));
      }
      reservations.add(dvm.reserve(tool, null, nodes));
    }
  }

  private Request.Spawn nextSpawn() {
    String target = reservations.get(next++ % reservations.size());
    return Request.Spawn.of(dvm.rid(), owner, Fixtures.ONE_PROC).withTarget(List.of(target));
  }

  /**
   * Sampled, so the report shows the distribution (p50, p99) rather than only a mean that the
   * per-invocation reaping makes noisy.
   */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  public Outcome spawn() {
    spawned = dvm.handle(nextSpawn());
    return spawned;
  }

  @TearDown(Level.Invocation)
  public void reap() {
    if (spawned != null) {
      finish(spawned);
      spawned = null;
    }
  }

  @Benchmark
  @OperationsPerInvocation(3)
  public void spawnLaunchExit() {
    finish(dvm.handle(nextSpawn()));
  }

  /** Launch report then exit report for the one process: the job ends and frees its slot. */
  private void finish(Outcome o) {
    String ns = ((Change.JobSpawned) o.changes().get(0)).namespace();
    dvm.launch(o);
    dvm.handle(new Report.ProcExited(ns, 0, 0, 0));
  }
}
