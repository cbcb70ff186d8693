package org.jdvm.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jdvm.bench.dvm.DvmBench;
import org.jdvm.bench.dvm.Row;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm bench} (docs/cli.md "jdvm bench"): parses its options, has jdvm-bench measure ({@link
 * DvmBench}: spawn latency, job throughput, allocation round trips, CLI start-up and the wire-up,
 * beside the machine's floor; or, with {@code --agents}, the controller against simulated node
 * agents) and prints the results as a table or JSON. The bench DVM is started as {@code jdvm start
 * --detach} starts one, by this command in a child JVM of this class path. Benchmarks are not
 * tests: nothing here asserts a time.
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
              + DvmBench.WARM_UP_CLIENTS
              + " concurrent clients, the second by one. The DVM's JIT compiles and recompiles"
              + " its hot paths over its first ten thousand jobs or so, for what one client and"
              + " what concurrent clients make hot; a DVM lives longer than that.")
  int warmUp = 10_000;

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
      names = "--rate-turns",
      paramLabel = "N",
      description =
          "One-second turns of the floor's 8 threads, then 8 clients, whose median ratio is the"
              + " 8-client rate / floor rate (default 6).")
  int rateTurns = 6;

  @Option(
      names = "--cli-runs",
      paramLabel = "N",
      description = "Fresh 'jdvm run' commands to time (default 30; 0 skips).")
  int cliRuns = 30;

  @Option(
      names = "--mpi-runs",
      paramLabel = "N",
      description =
          "Timed turns of the MPI launch measures, after --mpi-warm-up turns: each turn runs an MPI"
              + " hello of each family as singletons with no launcher, under its own launcher"
              + " (mpiexec.mpich, mpirun.openmpi), under 'jdvm run' and through the client library"
              + " (default 10; 0 skips them and the fence measure).")
  int mpiRuns = 10;

  @Option(
      names = "--mpi-warm-up",
      paramLabel = "N",
      description = "Untimed turns before the MPI launch measures' timed ones (default 2).")
  int mpiWarmUp = 2;

  @Option(
      names = "--mpi-ranks",
      paramLabel = "N,...",
      split = ",",
      description = "The numbers of ranks of the MPI launch measures (default 2,4,8).")
  List<Integer> mpiRanks = List.of(2, 4, 8);

  @Option(
      names = "--only",
      paramLabel = "SECTION",
      description =
          "Only one section: 'mpi', the MPI launch measures (jdvm beside each MPI family's own"
              + " launcher and the singleton floor), without the spawn, allocation, CLI and fence"
              + " measures and their warm-up.")
  String only;

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

  @picocli.CommandLine.Mixin ProcsBenchOptions procs = new ProcsBenchOptions();

  private final PrintStream out = System.out;
  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    if (only != null && !only.equals(DvmBench.Settings.MPI)) {
      System.err.println("jdvm bench: --only takes " + DvmBench.Settings.MPI);
      return Main.EXIT_USAGE;
    }
    if (mpiWarmUp < 0 || mpiRanks.isEmpty() || mpiRanks.stream().anyMatch(n -> n < 1)) {
      System.err.println(
          "jdvm bench: --mpi-ranks takes numbers of ranks of at least 1, --mpi-warm-up a count");
      return Main.EXIT_USAGE;
    }
    if (rateTurns < 1) {
      System.err.println("jdvm bench: --rate-turns takes a number of turns of at least 1");
      return Main.EXIT_USAGE;
    }
    if (procs.procs != null) {
      return procsBench();
    }
    if (agents != null) {
      AgentBenchReport.print(DvmBench.agents(agents, progress), json, out);
      return Main.EXIT_OK;
    }
    print(
        DvmBench.run(
            new DvmBench.Settings(
                spawns,
                warmUp,
                allocs,
                seconds,
                rateWarmUp,
                rateTurns,
                cliRuns,
                mpiRuns,
                mpiWarmUp,
                mpiRanks,
                only,
                fsync,
                inProcess,
                jdvmInChildJvm()),
            progress));
    return Main.EXIT_OK;
  }

  /** {@code --procs N}: many live processes on this machine (ProcsBench). */
  private int procsBench() throws Exception {
    org.jdvm.bench.dvm.ProcsBench.Settings ps;
    try {
      ps = procs.settings();
    } catch (IllegalArgumentException e) {
      System.err.println("jdvm bench: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    print(org.jdvm.bench.dvm.ProcsBench.run(ps, progress));
    return Main.EXIT_OK;
  }

  /** The command that runs {@code jdvm} in a child JVM of this class path, as StartCommand does. */
  static List<String> jdvmInChildJvm() {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(StartCommand.DVM_JVM_ACCESS);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    return cmd;
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
