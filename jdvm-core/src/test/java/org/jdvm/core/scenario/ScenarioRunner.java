package org.jdvm.core.scenario;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Feature;
import org.jdvm.core.Limits;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.engine.Core;
import org.jdvm.core.engine.CoreInternals;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.StateInvariants;

/**
 * Runs a scenario file: blocks of a command line, a {@code ----} line, and the expected output up
 * to a blank line. Lines starting with {@code #} are comments; the first block is {@code config}.
 * With {@code -Djdvm.rewrite=true} the file is rewritten with the actual output (review the diff).
 *
 * <p>The config line takes {@code nodes=NAME:SLOTS,...}, {@code dvm=}, {@code without=FEATURE,...},
 * {@code retain=N} and {@code limits=NAME:N,...} (components of {@link Limits}). Besides the
 * commands of {@link Commands}: {@code time SECONDS} sets the clock; {@code launch-all job=NS}
 * reports every placed process launched (pid 1000+rank), one report per node; {@code exit-all
 * job=NS [code=N]} reports every live process exited; {@code show nodes|allocs|jobs|pending},
 * {@code status ID} and {@code procinfo NS.RANK} print the query views; {@code explain} and {@code
 * explain-job} print {@code jdvm explain}'s answer ({@link Explains}). After every command the
 * state's invariants are verified, and a refused command must leave the state's digest unchanged.
 */
final class ScenarioRunner {
  private Core core;
  private long nowNs;

  /** The file's text as it should be: the same commands with their actual output. */
  String run(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (line.isBlank() || line.startsWith("#")) {
        out.append(line).append('\n');
        i++;
        continue;
      }
      out.append(line).append('\n');
      i++;
      if (i < lines.size() && lines.get(i).equals("----")) {
        i++;
        while (i < lines.size() && !lines.get(i).isBlank()) {
          i++;
        }
      }
      List<String> actual;
      try {
        actual = execute(line.trim());
      } catch (RuntimeException | AssertionError e) {
        throw new AssertionError(file.getFileName() + ":" + i + ": " + line + ": " + e, e);
      }
      if (actual != null && actual.isEmpty()) {
        actual = List.of("(nothing)");
      }
      if (actual != null) {
        out.append("----\n");
        for (String a : actual) {
          out.append(a).append('\n');
        }
        if (i >= lines.size() || !lines.get(i).isBlank()) {
          out.append('\n');
        }
      }
    }
    return out.toString();
  }

  /** Runs one line; returns its output, or {@code null} for a line without output (config). */
  private List<String> execute(String line) {
    Commands.Args a = new Commands.Args(line);
    return switch (a.verb) {
      case "config" -> {
        configure(a);
        yield null;
      }
      case "time" -> {
        nowNs = Long.parseLong(a.flags.get(0)) * 1_000_000_000L;
        yield List.of("now " + a.flags.get(0) + "s");
      }
      case "launch-all" -> launchAll(a.need("job"));
      case "exit-all" -> exitAll(a.need("job"), a.integer("code"));
      case "show" -> Views.show(core.view(), a.flags.get(0));
      case "status" -> Views.status(core.view(), a.flags.get(0));
      case "procinfo" -> Views.procInfo(core.view(), a.flags.get(0));
      case "explain" -> Explains.spawn(core.view(), line);
      case "explain-job" -> Explains.job(core.view(), line);
      default -> handle(Commands.parse(line));
    };
  }

  private void configure(Commands.Args a) {
    List<NodeSpec> nodes = Commands.specs(a.list("nodes"));
    String dvm = a.get("dvm") == null ? "jdvm" : a.get("dvm");
    Set<Feature> without = EnumSet.noneOf(Feature.class);
    if (a.list("without") != null) {
      for (String f : a.list("without")) {
        without.add(Feature.valueOf(f.toUpperCase()));
      }
    }
    CoreConfig config = CoreConfig.of(dvm, nodes).without(without);
    if (a.integer("retain") != null) {
      config = config.retaining(a.integer("retain"));
    }
    if (a.list("limits") != null) {
      config = config.limitedBy(limits(a.list("limits")));
    }
    core = new Core(config);
    nowNs = 0;
  }

  /** {@code limits=name:value,...}, each name a component of {@link Limits}. */
  private static Limits limits(List<String> entries) {
    Limits limits = Limits.DEFAULT;
    for (String entry : entries) {
      String[] nv = entry.split(":");
      int n = Integer.parseInt(nv[1]);
      limits =
          switch (nv[0]) {
            case "procsPerSpawn" -> limits.withProcsPerSpawn(n);
            case "liveProcs" -> limits.withLiveProcs(n);
            case "appsPerSpawn" -> limits.withAppsPerSpawn(n);
            case "nodesInDvm" -> limits.withNodesInDvm(n);
            case "nodesPerRequest" -> limits.withNodesPerRequest(n);
            case "liveAllocations" -> limits.withLiveAllocations(n);
            case "pendingAsksPerRequester" -> limits.withPendingAsksPerRequester(n);
            default -> throw new IllegalArgumentException("no limit " + nv[0]);
          };
    }
    return limits;
  }

  private List<String> handle(Command command) {
    if (core == null) {
      throw new IllegalStateException("a scenario starts with a config line");
    }
    String before = core.digest();
    Outcome o = core.handle(command, nowNs);
    if (o.rejected() && !before.equals(core.digest())) {
      throw new AssertionError("a refused command changed the state: " + command);
    }
    StateInvariants.verify(CoreInternals.state(core));
    return Render.outcome(o);
  }

  private List<String> launchAll(String namespace) {
    Job job = CoreInternals.state(core).jobs().get(namespace);
    List<String> out = new ArrayList<>();
    List<String> nodes = new ArrayList<>();
    for (ProcRecord p : job.procs()) {
      if (p.state() == ProcRecord.State.PLACED && !nodes.contains(p.node())) {
        nodes.add(p.node());
      }
    }
    for (String node : nodes) {
      List<Report.LaunchedProc> procs = new ArrayList<>();
      for (ProcRecord p : job.procs()) {
        if (p.state() == ProcRecord.State.PLACED && p.node().equals(node)) {
          procs.add(new Report.LaunchedProc(p.rank(), 1000 + p.rank()));
        }
      }
      Report.ProcsLaunched r = new Report.ProcsLaunched(node, namespace, procs);
      out.add("> " + Render.record(r));
      out.addAll(handle(r));
    }
    return out;
  }

  private List<String> exitAll(String namespace, Integer code) {
    Job job = CoreInternals.state(core).jobs().get(namespace);
    List<String> out = new ArrayList<>();
    for (ProcRecord p : job.procs()) {
      if (p.live()) {
        Report.ProcExited r =
            new Report.ProcExited(namespace, p.rank(), code == null ? 0 : code, 0);
        out.add("> " + Render.record(r));
        out.addAll(handle(r));
      }
    }
    return out;
  }
}
