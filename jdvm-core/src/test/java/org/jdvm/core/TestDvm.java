package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdvm.core.engine.Core;
import org.jdvm.core.engine.CoreInternals;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.core.state.StateInvariants;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;

/**
 * A small driver for unit tests: a core with a clock and request ids, and short helpers for the
 * usual steps (register, allocate and grant, spawn and launch, exit). Every command is followed by
 * a full invariant check.
 */
public final class TestDvm {
  final Core core;
  long nowNs;
  private long nextRequest = 1;
  Outcome last;

  public TestDvm(CoreConfig config) {
    this.core = new Core(config);
  }

  /** A DVM named "jdvm" with start-up nodes n0.. of {@code slots} slots each. */
  public static TestDvm withNodes(int nodes, int slots) {
    return new TestDvm(CoreConfig.of("jdvm", specs("n", nodes, slots)));
  }

  public static List<NodeSpec> specs(String prefix, int nodes, int slots) {
    List<NodeSpec> out = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      out.add(new NodeSpec(prefix + i, slots));
    }
    return out;
  }

  /** The core, for tests in other packages. */
  public Core core() {
    return core;
  }

  /** The core's state itself, for tests that must look at (or break) what no view shows. */
  public static org.jdvm.core.state.State state(TestDvm dvm) {
    return CoreInternals.state(dvm.core);
  }

  public Outcome handle(Command c) {
    last = core.handle(c, nowNs);
    StateInvariants.verify(CoreInternals.state(core));
    return last;
  }

  public RequestId rid() {
    return new RequestId(nextRequest++);
  }

  public static Proc proc(String namespace) {
    return new Proc(namespace, 0);
  }

  /** Registers a tool; returns its namespace. */
  public String tool() {
    Outcome o = handle(new Request.RegisterTool(rid(), null));
    return string(reply(o), PmixKeys.NSPACE);
  }

  public String scheduler() {
    Outcome o = handle(new Request.RegisterScheduler(rid(), null));
    return string(reply(o), PmixKeys.NSPACE);
  }

  public Request.Allocate.Builder allocate(String requester, AllocDirective d) {
    return Request.Allocate.builder(rid(), proc(requester), d);
  }

  /** Handles a NEW (or EXTEND) and grants its ask with these nodes; returns the allocation id. */
  public String allocateGranted(Request.Allocate request, List<NodeSpec> nodes) {
    Outcome o = handle(request);
    Effect.AskScheduler ask = only(o, Effect.AskScheduler.class);
    Outcome g = handle(new Report.SchedulerGranted(ask.askId(), nodes, null, null));
    return string(reply(g), PmixKeys.ALLOC_ID);
  }

  /** A NEW allocation for {@code requester} of these scheduler nodes; returns its id. */
  public String reserve(String requester, Integer inheritance, String... nodes) {
    List<NodeSpec> specs = new ArrayList<>();
    for (String n : nodes) {
      specs.add(new NodeSpec(n, 4));
    }
    Request.Allocate.Builder b = allocate(requester, AllocDirective.NEW).nodeCount(nodes.length);
    if (inheritance != null) {
      b.inheritance(inheritance);
    }
    return allocateGranted(b.build(), specs);
  }

  public static List<App> apps(int procs) {
    return List.of(new App("app", List.of("app"), List.of(), null, procs, List.of()));
  }

  /** Spawns and launches every process; returns the new namespace. */
  public String spawnLaunched(String requester, int procs, String... target) {
    Request.Spawn s = Request.Spawn.of(rid(), proc(requester), apps(procs));
    if (target.length > 0) {
      s = s.withTarget(List.of(target));
    }
    Outcome o = handle(s);
    assertThat(o.rejected()).as("spawn refused: %s", o.rejection()).isFalse();
    String ns = ((Change.JobSpawned) o.changes().get(0)).namespace();
    launchAll(ns);
    return ns;
  }

  public void launchAll(String namespace) {
    for (Effect e : last.effects()) {
      if (e instanceof Effect.LaunchProcs l && l.namespace().equals(namespace)) {
        List<Report.LaunchedProc> procs = new ArrayList<>();
        l.procs().forEach(p -> procs.add(new Report.LaunchedProc(p.rank(), 100 + p.rank())));
        handle(new Report.ProcsLaunched(l.node(), namespace, procs));
      }
    }
  }

  /** Reports every live process of the job exited with code 0. */
  public Outcome exitAll(String namespace) {
    JobView job = core.view().job(namespace).orElseThrow();
    Outcome o = null;
    for (ProcView p : job.procs()) {
      if (p.state() != ProcView.State.ENDED) {
        o = handle(new Report.ProcExited(namespace, p.rank(), 0, 0));
      }
    }
    return o;
  }

  public Optional<? extends org.jdvm.core.query.AllocationView> allocation(String id) {
    return core.view().allocation(id);
  }

  public String digest() {
    return core.digest();
  }

  public static Effect.Reply reply(Outcome o) {
    return only(o, Effect.Reply.class);
  }

  public static <T extends Effect> T only(Outcome o, Class<T> type) {
    List<T> found = all(o, type);
    assertThat(found).as("%s effects in %s", type.getSimpleName(), o.effects()).hasSize(1);
    return found.get(0);
  }

  public static <T extends Effect> List<T> all(Outcome o, Class<T> type) {
    List<T> found = new ArrayList<>();
    for (Effect e : o.effects()) {
      if (type.isInstance(e)) {
        found.add(type.cast(e));
      }
    }
    return found;
  }

  public static String string(Effect.Reply r, String key) {
    for (Info i : r.infos()) {
      if (i.key().equals(key)) {
        return i.value().asString();
      }
    }
    throw new AssertionError("no " + key + " in " + r);
  }
}
