package org.jdvm.core.spawn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Change.JobSpawned;
import org.jdvm.core.Change.OwnerAdded;
import org.jdvm.core.Change.Placement;
import org.jdvm.core.Change.ProcsPlaced;
import org.jdvm.core.Effect.LaunchProcs;
import org.jdvm.core.Effect.ProcLaunch;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.OverLimit;
import org.jdvm.core.Request.Spawn;
import org.jdvm.core.RequestId;
import org.jdvm.core.job.Requesters;
import org.jdvm.core.mapping.Mapper;
import org.jdvm.core.query.NodeReason;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.LimitChecks;
import org.jdvm.core.state.Sessions;
import org.jdvm.core.state.State;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/**
 * A spawn (spec §8.2.1.6–§8.2.1.8): decided completely (processes, targets, ownership, fit) before
 * anything changes, so a refused spawn launches nothing. An accepted spawn mints the namespace,
 * records the job as a child of the requester, adds it to the owner set of every reservation it was
 * spawned into (not transitively: only those), places every process, and asks the agents to launch
 * them. The reply waits for the launch reports.
 */
public final class SpawnRule {
  private SpawnRule() {}

  /** The environment variables with which the core tells a process where it runs. */
  public static final String ENV_SESSION_ID = "JDVM_SESSION_ID";

  public static final String ENV_ALLOC_ID = "JDVM_ALLOC_ID";

  public static void spawn(Spawn spawn, Txn txn) {
    State state = txn.state();
    Job requester = Requesters.job(state, spawn.requester());
    switch (decide(spawn, requester, state)) {
      case Resolution.Refused r -> txn.reject(spawn.requestId(), r.why());
      case Resolution.Resolved r ->
          launch(
              requester,
              spawn.requester(),
              spawn.requestId(),
              List.of(),
              r.targets(),
              spawn.apps(),
              spawn.mapBy(),
              new Policy(spawn.recoverable(), spawn.stdinRank(), spawn.fill()),
              txn);
    }
  }

  /**
   * Every check, in {@link SpawnRejection} order with the limits ({@link LimitChecks#spawn}) right
   * after {@code NO_PROCESSES}: what a spawn asks for is bounded before anything is looked up or
   * summed against the free slots.
   */
  static Resolution decide(Spawn spawn, Job requester, State state) {
    if (!hasProcesses(spawn.apps())) {
      return new Resolution.Refused(SpawnRejection.NO_PROCESSES);
    }
    OverLimit over = LimitChecks.spawn(spawn.apps(), state);
    if (over != null) {
      return new Resolution.Refused(over);
    }
    Resolution r = Targeting.resolve(spawn, requester, state);
    if (r instanceof Resolution.Resolved ok
        && !Mapper.fits(ok.targets().pools(), LimitChecks.processes(spawn.apps()), spawn.fill())) {
      return new Resolution.Refused(SpawnRejection.DOES_NOT_FIT);
    }
    return r;
  }

  /**
   * How a job's processes are run besides where: whether one failing leaves the others running, and
   * which rank's stdin is a pipe ({@code Proc.RANK_WILDCARD}: every rank; {@code null}: none), and
   * how full it may make a node ({@code null}: at most its free slots).
   */
  public record Policy(boolean recoverable, Integer stdinRank, NodeFill fill) {
    /** A job that ends when one of its processes fails, with no stdin. */
    public static final Policy DEFAULT = new Policy(false, null, null);

    boolean stdin(int rank) {
      return stdinRank != null && (stdinRank == Proc.RANK_WILDCARD || stdinRank == rank);
    }
  }

  /**
   * Creates, places and launches a job that fits in {@code targets}. Shared with session
   * instantiation, whose job is spawned by the scheduler into the new session.
   */
  public static String launch(
      Job parent,
      Proc spawner,
      RequestId replyTo,
      List<Info> replyInfos,
      Targets targets,
      List<App> apps,
      MapBy mapBy,
      Policy policy,
      Txn txn) {
    State state = txn.state();
    String namespace = state.jobs().nextNamespace();
    List<Placement> placements = Mapper.place(apps, targets.pools(), mapBy, policy.fill());
    checkUsable(placements, targets, parent, policy.fill(), state);
    txn.change(
        new JobSpawned(
            namespace,
            parent.namespace(),
            spawner,
            replyTo,
            replyInfos,
            targets.sessionIds(),
            withoutEnvValues(apps),
            mapBy,
            policy.recoverable(),
            policy.stdinRank(),
            policy.fill()));
    org.jdvm.core.job.JobTimeouts.arm(namespace, apps, txn);
    for (Allocation a : targets.reservations()) {
      txn.change(new OwnerAdded(a.allocId(), namespace));
    }
    txn.change(new ProcsPlaced(namespace, placements));
    launchEffects(namespace, placements, apps, environment(targets, state), policy, txn);
    return namespace;
  }

  /**
   * On the way out of deciding: every node the mapper chose is one {@link NodeRule} calls usable
   * for these targets, so what {@code jdvm explain} says of a node is what the spawn did with it.
   * Once per node placed on.
   */
  private static void checkUsable(
      List<Placement> placements, Targets targets, Job requester, NodeFill fill, State state) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Placement p : placements) {
      if (seen.add(p.node())) {
        NodeReason why =
            NodeRule.reason(state.nodes().get(p.node()), targets.named(), requester, fill);
        if (why != NodeReason.USABLE) {
          throw new IllegalStateException("placed on node " + p.node() + " that is " + why);
        }
      }
    }
  }

  /**
   * The apps as the state keeps them: the environment's names without their values. Only the launch
   * needs the values, and it has them from the request; the state — and so the journal and its
   * snapshots — keeps no secret it never reads again (docs/journal.md "Files").
   */
  private static List<App> withoutEnvValues(List<App> apps) {
    List<App> out = new ArrayList<>(apps.size());
    for (App a : apps) {
      out.add(new App(a.cmd(), a.argv(), a.envNames(), a.cwd(), a.maxprocs(), a.info()));
    }
    return out;
  }

  /** Whether there is at least one app and every app has at least one process. */
  public static boolean hasProcesses(List<App> apps) {
    if (apps.isEmpty()) {
      return false;
    }
    for (App app : apps) {
      if (app.maxprocs() < 1) {
        return false;
      }
    }
    return true;
  }

  private static void launchEffects(
      String namespace,
      List<Placement> placements,
      List<App> apps,
      List<String> env,
      Policy policy,
      Txn txn) {
    Map<String, List<ProcLaunch>> byNode = new LinkedHashMap<>();
    for (Placement p : placements) {
      App app = apps.get(p.appIndex());
      byNode
          .computeIfAbsent(p.node(), n -> new ArrayList<>())
          .add(new ProcLaunch(p.rank(), p.appIndex(), app, env, policy.stdin(p.rank())));
    }
    for (Map.Entry<String, List<ProcLaunch>> e : byNode.entrySet()) {
      txn.effect(new LaunchProcs(e.getKey(), namespace, e.getValue()));
    }
  }

  /** Where the job runs: its primary session, and that session's allocation id if it has one. */
  private static List<String> environment(Targets targets, State state) {
    long primary = targets.sessionIds().get(0);
    if (primary == Sessions.DEFAULT_ID) {
      return List.of(ENV_SESSION_ID + "=" + primary);
    }
    Allocation a = state.allocations().bySession(primary);
    return List.of(ENV_SESSION_ID + "=" + primary, ENV_ALLOC_ID + "=" + a.allocId());
  }
}
