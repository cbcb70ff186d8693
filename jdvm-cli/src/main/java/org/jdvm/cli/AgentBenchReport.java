package org.jdvm.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.jdvm.bench.dvm.AgentScaleBench;
import org.jdvm.bench.dvm.GrowthFit;
import org.jdvm.pmix.json.Json;

/**
 * How {@code jdvm bench --agents} prints its results (docs/cli.md "jdvm bench"): one table, a row
 * per size, and a last row naming the growth each column fits best (log n, n or n log n, with the
 * RMS residual of that fit; {@link GrowthFit}; a measure that did not run at a size is NaN and left
 * out of its fit); or, with {@code --json}, one object per size.
 */
final class AgentBenchReport {
  private AgentBenchReport() {}

  private record Column(String header, String key, ToDoubleFunction<AgentScaleBench.Result> of) {}

  private static final List<Column> COLUMNS =
      List.of(
          new Column("START ms", "startMs", AgentScaleBench.Result::startMs),
          new Column("LAUNCH ms", "launchMs", AgentScaleBench.Result::launchMs),
          new Column("FENCED JOB ms", "fenceJobMs", AgentScaleBench.Result::fenceJobMs),
          new Column("TEARDOWN ms", "teardownMs", AgentScaleBench.Result::teardownMs),
          new Column("CPU us/node LAUNCH", "cpuUsPerNode", AgentScaleBench.Result::cpuUsPerNode),
          new Column(
              "CPU us/node FENCED",
              "fenceCpuUsPerNode",
              AgentScaleBench.Result::fenceCpuUsPerNode));

  static void print(List<AgentScaleBench.Result> results, boolean json, PrintStream out) {
    if (json) {
      for (AgentScaleBench.Result r : results) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nodes", r.nodes());
        for (Column c : COLUMNS) {
          double v = c.of().applyAsDouble(r);
          m.put(c.key(), Double.isNaN(v) ? null : v); // not run: null, JSON has no NaN
        }
        out.println(Json.write(m));
      }
      return;
    }
    List<String> header = new ArrayList<>(List.of("NODES"));
    COLUMNS.forEach(c -> header.add(c.header()));
    Table t = new Table(header.toArray(String[]::new));
    for (AgentScaleBench.Result r : results) {
      List<Object> row = new ArrayList<>(List.of(r.nodes()));
      COLUMNS.forEach(c -> row.add(String.format(Locale.ROOT, "%.1f", c.of().applyAsDouble(r))));
      t.row(row.toArray());
    }
    if (results.size() >= 2) {
      List<Object> row = new ArrayList<>(List.of("fits"));
      for (Column c : COLUMNS) {
        // a size whose measure did not run (NaN) is left out of its column's fit
        List<AgentScaleBench.Result> measured =
            results.stream().filter(r -> !Double.isNaN(c.of().applyAsDouble(r))).toList();
        double[] n = measured.stream().mapToDouble(AgentScaleBench.Result::nodes).toArray();
        double[] y = measured.stream().mapToDouble(c.of()).toArray();
        row.add(n.length >= 2 ? GrowthFit.fits(n, y).getFirst() : "-");
      }
      t.row(row.toArray());
    }
    out.println();
    t.print(out);
  }
}
