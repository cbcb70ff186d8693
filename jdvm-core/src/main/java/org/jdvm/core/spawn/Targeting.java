package org.jdvm.core.spawn;

import java.util.ArrayList;
import java.util.Collections;
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

  /** The resolved targets, or why the spawn may not have them. */
  static Resolution resolve(Spawn spawn, Job requester, State state) {
    List<Allocation> sessions = new ArrayList<>();
    Requested requested = requested(spawn, state);
    switch (requested) {
      case Requested.NotFound n -> {
        return new Resolution.Refused(SpawnRejection.TARGET_NOT_FOUND);
      }
      case Requested.None n -> sessions.add(inherited(requester, state));
      case Requested.Named n -> sessions.addAll(n.sessions());
    }
    for (Allocation a : sessions) {
      if (!Ownership.mayTarget(a, requester)) {
        return new Resolution.Refused(SpawnRejection.TARGET_NOT_OWNED);
      }
    }
    for (Allocation a : sessions) {
      if (a != null && a.terminating()) {
        return new Resolution.Refused(SpawnRejection.TARGET_TERMINATING);
      }
    }
    return new Resolution.Resolved(
        sessions.isEmpty() ? Targets.defaultSession(state) : Targets.of(sessions, state));
  }

  /** What the targeting attributes name. */
  private sealed interface Requested {
    /** No targeting attribute was given. */
    record None() implements Requested {}

    /** An entry names no session. */
    record NotFound() implements Requested {}

    /** These sessions, {@code null} standing for the default session. */
    record Named(List<Allocation> sessions) implements Requested {}
  }

  /** Reads the targeting attributes. */
  private static Requested requested(Spawn spawn, State state) {
    if (spawn.spawnTarget() != null && state.config().enabled(Feature.SPAWN_TARGET)) {
      List<Allocation> named = new ArrayList<>();
      for (String entry : spawn.spawnTarget()) {
        Allocation a = entry.isEmpty() ? null : state.allocations().byAllocId(entry);
        if (!entry.isEmpty() && a == null) {
          return new Requested.NotFound();
        }
        named.add(a);
      }
      return new Requested.Named(named);
    }
    if (spawn.sessionId() == null && spawn.allocId() == null && spawn.allocReqId() == null) {
      return new Requested.None();
    }
    if (spawn.sessionId() != null && spawn.sessionId() == Sessions.DEFAULT_ID) {
      return new Requested.Named(Collections.singletonList(null));
    }
    Allocation a =
        spawn.sessionId() != null
            ? state.allocations().bySession(spawn.sessionId())
            : spawn.allocId() != null
                ? state.allocations().byAllocId(spawn.allocId())
                : state.allocations().byReqId(spawn.allocReqId());
    return a == null ? new Requested.NotFound() : new Requested.Named(List.of(a));
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
