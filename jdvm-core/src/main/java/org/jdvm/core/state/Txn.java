package org.jdvm.core.state;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.Effect;
import org.jdvm.core.Outcome;
import org.jdvm.core.Rejection;
import org.jdvm.core.RequestId;

/**
 * One command's work in progress. A rule first decides, reading the state only; then it either
 * {@link #reject}s (nothing has changed, nothing may change) or records changes, each applied at
 * once through {@link State#apply}, and effects. Consequences that cascade (a job ending, which may
 * end a reservation, whose departing nodes end other jobs) go through the termination worklist, so
 * the cascade is a loop with a bound, not a recursion.
 */
public final class Txn {
  private final State state;
  private final long nowNs;
  private final List<Change> changes = new ArrayList<>();
  private final List<Effect> effects = new ArrayList<>();
  private final ArrayDeque<Job> toTerminate = new ArrayDeque<>();
  private Rejection rejection;
  private boolean changedState;

  public Txn(State state, long nowNs) {
    this.state = state;
    this.nowNs = nowNs;
  }

  public State state() {
    return state;
  }

  public long nowNs() {
    return nowNs;
  }

  /** Applies a change now and records it. */
  public void change(Change change) {
    Check.state(rejection == null, "a change after a rejection", change);
    changedState = true;
    state.apply(change);
    changes.add(change);
  }

  public void effect(Effect effect) {
    Check.state(rejection == null, "an effect after a rejection", effect);
    effects.add(effect);
  }

  /** Refuses the request: a reply with the rejection's status, and nothing else. */
  public void reject(RequestId requestId, Rejection why) {
    Check.state(changes.isEmpty() && effects.isEmpty(), "a rejection after acting", why);
    rejection = why;
    effects.add(new Effect.Reply(requestId, why.status(), List.of()));
  }

  public boolean rejected() {
    return rejection != null;
  }

  /**
   * Whether this command has touched the state: a change was (being) applied, or a job was queued
   * for termination. Until then a failure leaves the state exactly as it was.
   */
  public boolean changedState() {
    return changedState;
  }

  /** Queues a job whose last process ended (or a departing tool) for termination. */
  public void terminateLater(Job job) {
    if (!job.pendingTermination) {
      changedState = true;
      job.pendingTermination = true;
      toTerminate.addLast(job);
    }
  }

  /** The next job to terminate, or {@code null} when the cascade has settled. */
  public Job nextToTerminate() {
    Job job = toTerminate.pollFirst();
    if (job != null) {
      job.pendingTermination = false;
    }
    return job;
  }

  public Outcome outcome(long nextDeadlineNs) {
    Check.state(toTerminate.isEmpty(), "an outcome with terminations still queued");
    return new Outcome(changes, effects, rejection, nextDeadlineNs);
  }

  /** The changes recorded so far (read-only). */
  public List<Change> changes() {
    return java.util.Collections.unmodifiableList(changes);
  }
}
