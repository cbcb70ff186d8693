package org.jdvm.endpoint.serve;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.core.Report;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.Peer;

/**
 * A tool's or the scheduler's departure (decisions.md #11): its namespace terminates when it
 * finalizes or its connection is lost, whichever comes first, and only once.
 */
public final class Departures {
  private final Upstream upstream;
  private final Set<Connection> departed = ConcurrentHashMap.newKeySet();

  public Departures(Upstream upstream) {
    this.upstream = upstream;
  }

  /** The connection's peer leaves; nothing happens for a launched process or a second time. */
  void depart(Connection c, boolean connectionLost) {
    Peer p = c.peer();
    if (p == null || !p.role().isToolClass() || !departed.add(c)) {
      return;
    }
    upstream.report(new Report.ToolDeparted(p.proc().nspace(), connectionLost));
  }

  /** The connection is gone: forget it (after {@link #depart}). */
  void forget(Connection c) {
    departed.remove(c);
  }
}
