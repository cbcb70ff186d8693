package org.jdvm.bench.core;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * Builds large core states through the public API only (every node, reservation and job arrives as
 * a command), so the benchmarks measure the state the shell would really have.
 */
final class Fixtures {
  static final App ONE = new App("app", List.of("app"), List.of(), null, 1, List.of());
  static final List<App> ONE_PROC = List.of(ONE);

  final Core core;
  private long request;
  private long pid = 1;

  Fixtures(int nodes, int slotsPerNode) {
    this(CoreConfig.of("bench", nodes(nodes, slotsPerNode)));
  }

  Fixtures(CoreConfig config) {
    this.core = new Core(config);
  }

  static List<NodeSpec> nodes(int n, int slots) {
    List<NodeSpec> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new NodeSpec("n" + i, slots));
    }
    return out;
  }

  RequestId rid() {
    return new RequestId(++request);
  }

  /** Told of every command and its outcome (the journal benchmark journals them). */
  java.util.function.BiConsumer<Command, Outcome> observer = (c, o) -> {};

  Outcome handle(Command c) {
    Outcome o = core.handle(c, 0);
    observer.accept(c, o);
    return o;
  }

  String tool() {
    return string(reply(handle(new Request.RegisterTool(rid(), null))), PmixKeys.NSPACE);
  }

  /** A reservation of these start-up nodes for {@code owner}, carved at once; returns its id. */
  String reserve(String owner, Integer inheritance, List<String> nodes) {
    Outcome o =
        handle(
            Request.Allocate.builder(rid(), new Proc(owner, 0), AllocDirective.NEW)
                .nodeList(nodes)
                .inheritance(inheritance)
                .build());
    return string(reply(o), PmixKeys.ALLOC_ID);
  }

  /** Spawns one process (into {@code target}, or the parent's session if null) and launches it. */
  String spawnLaunched(String parent, String target) {
    Request.Spawn s = Request.Spawn.of(rid(), new Proc(parent, 0), ONE_PROC);
    Outcome o = handle(target == null ? s : s.withTarget(List.of(target)));
    if (o.rejected()) {
      throw new IllegalStateException("spawn refused: " + o.rejection());
    }
    String ns = ((Change.JobSpawned) o.changes().get(0)).namespace();
    launch(o);
    return ns;
  }

  /** Reports every process the outcome launches as started. */
  void launch(Outcome o) {
    for (Effect e : o.effects()) {
      if (e instanceof Effect.LaunchProcs l) {
        List<Report.LaunchedProc> procs = new ArrayList<>(l.procs().size());
        for (Effect.ProcLaunch p : l.procs()) {
          procs.add(new Report.LaunchedProc(p.rank(), pid++));
        }
        handle(new Report.ProcsLaunched(l.node(), l.namespace(), procs));
      }
    }
  }

  static Effect.Reply reply(Outcome o) {
    for (Effect e : o.effects()) {
      if (e instanceof Effect.Reply r) {
        if (r.status() != PmixStatus.SUCCESS) {
          throw new IllegalStateException("refused: " + PmixStatus.name(r.status()));
        }
        return r;
      }
    }
    throw new IllegalStateException("no reply in " + o.effects());
  }

  static String string(Effect.Reply r, String key) {
    for (Info i : r.infos()) {
      if (i.key().equals(key)) {
        return i.value().asString();
      }
    }
    throw new IllegalStateException("no " + key + " in " + r);
  }
}
