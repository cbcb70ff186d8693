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

  /**
   * One targeting entry, looked up.
   *
   * @param named the entry as named ({@code ""}: the default session; {@code null}: none was named,
   *     and this is the session the requester's job inherits)
   * @param session the session it names ({@code null}: the default session)
   * @param found whether it names a live session
   */
  record Entry(String named, Allocation session, boolean found) {}

  /** The resolved targets, or why the spawn may not have them. */
  static Resolution resolve(Spawn spawn, Job requester, State state) {
    List<Entry> entries = entries(spawn, requester, state);
    List<Allocation> sessions = new ArrayList<>();
    for (Entry e : entries) {
      if (!e.found()) {
        return new Resolution.Refused(SpawnRejection.TARGET_NOT_FOUND);
      }
      sessions.add(e.session());
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

  /** The sessions the found entries name ({@code null}: the default session). */
  static List<Allocation> sessions(List<Entry> entries) {
    List<Allocation> sessions = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      if (e.found()) {
        sessions.add(e.session());
      }
    }
    return sessions;
  }

  /**
   * Reads the targeting attributes, in priority order, and looks each entry up; with none, the
   * session the requester's job inherits.
   */
  static List<Entry> entries(Spawn spawn, Job requester, State state) {
    if (spawn.spawnTarget() != null && state.config().enabled(Feature.SPAWN_TARGET)) {
      List<Entry> named = new ArrayList<>();
      for (String entry : spawn.spawnTarget()) {
        Allocation a = entry.isEmpty() ? null : state.allocations().byAllocId(entry);
        named.add(new Entry(entry, a, entry.isEmpty() || a != null));
      }
      return named;
    }
    if (spawn.sessionId() == null && spawn.allocId() == null && spawn.allocReqId() == null) {
      return List.of(new Entry(null, inherited(requester, state), true));
    }
    if (spawn.sessionId() != null && spawn.sessionId() == Sessions.DEFAULT_ID) {
      return List.of(new Entry("", null, true));
    }
    Allocation a =
        spawn.sessionId() != null
            ? state.allocations().bySession(spawn.sessionId())
            : spawn.allocId() != null
                ? state.allocations().byAllocId(spawn.allocId())
                : state.allocations().byReqId(spawn.allocReqId());
    String named =
        spawn.sessionId() != null
            ? String.valueOf(spawn.sessionId())
            : spawn.allocId() != null ? spawn.allocId() : spawn.allocReqId();
    return List.of(new Entry(named, a, a != null));
  }

  /**
   * No targeting attribute: an application's child goes to its parent's primary session if that
   * still exists (if it ended, the nodes are back in the default session, and so is the child); a
   * tool's or the scheduler's goes to the default session.
   */
  private static Allocation inherited(Job requester, State state) {
    if (requester == null
        || requester.kind() != JobKind.APPLICATION
        || requester.primarySessionId() == Sessions.DEFAULT_ID) {
      return null;
    }
    Allocation primary = state.allocations().bySession(requester.primarySessionId());
    return primary != null && primary.liveJobs().contains(requester) ? primary : null;
  }
}
