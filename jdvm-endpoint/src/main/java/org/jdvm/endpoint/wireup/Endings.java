package org.jdvm.endpoint.wireup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.core.Change;

/**
 * The ends wire-up state lives by, read from the DVM's changes: processes and jobs that ended
 * (published data of persistence PROC and APP goes, collectives lose members, waits of the ended
 * are dropped) and sessions that ended (persistence SESSION), and connections that closed. Called
 * on the controller thread after each outcome, and on a connection's reader when it closes.
 */
public final class Endings {
  private final PublishedData published;
  private final Connects connects;
  private final Map<String, Long> sessionOfAllocation = new ConcurrentHashMap<>();

  public Endings(PublishedData published, Connects connects) {
    this.published = published;
    this.connects = connects;
  }

  /** The changes of one outcome. */
  public void observed(Iterable<Change> changes) {
    for (Change change : changes) {
      switch (change) {
        case Change.ProcsEnded pe -> {
          published.procsEnded(pe.namespace(), pe.ranks());
          connects.procsEnded(pe.namespace(), pe.ranks());
        }
        case Change.JobTerminated jt -> {
          published.jobEnded(jt.namespace());
          connects.jobEnded(jt.namespace());
        }
        case Change.AllocationCreated ac -> sessionOfAllocation.put(ac.allocId(), ac.sessionId());
        case Change.AllocationEnded ae -> {
          Long session = sessionOfAllocation.remove(ae.allocId());
          if (session != null) {
            published.sessionEnded(session);
          }
        }
        default -> {}
      }
    }
  }

  /** A connection closed: what waits to be answered on it is dropped; its members are lost. */
  public void connectionClosed(Object connection) {
    published.ownerGone(connection);
    connects.ownerGone(connection);
  }
}
