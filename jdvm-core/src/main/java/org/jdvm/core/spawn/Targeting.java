package org.jdvm.core.spawn;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Feature;
import org.jdvm.core.JobKind;
import org.jdvm.core.Request.Spawn;
import org.jdvm.core.alloc.Ownership;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Sessions;
import org.jdvm.core.state.State;

/**
 * Which sessions a spawn targets and whether it may (spec §8.2.1.6–§8.2.1.7; decisions.md #15).
 *
 * <p>In priority order: {@code PMIX_SPAWN_TARGET} (each entry an allocation id, {@code ""} the
 * default session; the union of them all), then the single-session attributes ({@code
 * PMIX_SESSION_ID}, {@code PMIX_ALLOC_ID}, {@code PMIX_ALLOC_REQ_ID}, the first given), then the
 * parent job's primary session for an application requester, then the default session. Whether the
 * requester may spawn into a target is {@link Ownership#mayTarget}, the owner-set rule. If any
 * entry fails, the whole spawn is refused: every entry is looked up before any is authorised, so an
 * unknown entry reports NOT_FOUND even when another is not owned.
 */
final class Targeting {
  private Targeting() {}

  /** The resolved targets, or the rejection in {@code why[0]}. */
  static Targets resolve(Spawn spawn, Job requester, State state, SpawnRejection[] why) {
    List<Allocation> sessions = new ArrayList<>();
    boolean explicit = requested(spawn, state, sessions, why);
    if (why[0] != null) {
      return null;
    }
    if (!explicit) {
      sessions.add(inherited(requester, state));
    }
    for (Allocation a : sessions) {
      if (!Ownership.mayTarget(a, requester)) {
        why[0] = SpawnRejection.TARGET_NOT_OWNED;
        return null;
      }
    }
    for (Allocation a : sessions) {
      if (a != null && a.terminating()) {
        why[0] = SpawnRejection.TARGET_TERMINATING;
        return null;
      }
    }
    return sessions.isEmpty() ? Targets.defaultSession(state) : Targets.of(sessions, state);
  }

  /** Reads the targeting attributes into {@code out}; false if none was given. */
  private static boolean requested(
      Spawn spawn, State state, List<Allocation> out, SpawnRejection[] why) {
    if (spawn.spawnTarget() != null && state.config().enabled(Feature.SPAWN_TARGET)) {
      for (String entry : spawn.spawnTarget()) {
        Allocation a = entry.isEmpty() ? null : state.allocations().byAllocId(entry);
        if (!entry.isEmpty() && a == null) {
          why[0] = SpawnRejection.TARGET_NOT_FOUND;
          return true;
        }
        out.add(a);
      }
      return true;
    }
    if (spawn.sessionId() == null && spawn.allocId() == null && spawn.allocReqId() == null) {
      return false;
    }
    if (spawn.sessionId() != null && spawn.sessionId() == Sessions.DEFAULT_ID) {
      out.add(null);
      return true;
    }
    Allocation a =
        spawn.sessionId() != null
            ? state.allocations().bySession(spawn.sessionId())
            : spawn.allocId() != null
                ? state.allocations().byAllocId(spawn.allocId())
                : state.allocations().byReqId(spawn.allocReqId());
    if (a == null) {
      why[0] = SpawnRejection.TARGET_NOT_FOUND;
    }
    out.add(a);
    return true;
  }

  /**
   * No targeting attribute: an application's child goes to its parent's primary session if that
   * still exists (if it ended, the nodes are back in the default session, and so is the child); a
   * tool's or the scheduler's goes to the default session.
   */
  private static Allocation inherited(Job requester, State state) {
    if (requester.kind() != JobKind.APPLICATION
        || requester.primarySessionId() == Sessions.DEFAULT_ID) {
      return null;
    }
    Allocation primary = state.allocations().bySession(requester.primarySessionId());
    return primary != null && primary.liveJobs().contains(requester) ? primary : null;
  }
}
