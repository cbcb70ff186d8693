package org.jdvm.endpoint.serve;

import org.jdvm.pmix.PmixStatus;

/**
 * The peer's own life (docs/protocol.md "How jdvm reads the standard commands"): FINALIZE and
 * jdvm's STOP. (COMMIT is the modex's: {@link WireupOps}.)
 */
public final class PeerOps {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final Upstream upstream;
  private final Departures departures;

  public PeerOps(Upstream upstream, Departures departures) {
    this.upstream = upstream;
    this.departures = departures;
  }

  /** FINALIZE: answered, and a tool or the scheduler departs cleanly (decisions.md #11). */
  void finalizeTool(Exchange x) {
    x.replyStatus(PmixStatus.SUCCESS);
    departures.depart(x.connection(), false);
  }

  /** JDVM_STOP (docs/protocol.md): tools of the DVM's uid may stop it. */
  void stop(Exchange x) {
    if (!x.peer().role().isToolClass()) {
      x.replyStatus(PmixStatus.ERR_NO_PERMISSIONS);
      return;
    }
    LOG.log(
        System.Logger.Level.INFO, "peer=" + x.connection().index() + " proc=" + x.self() + " stop");
    x.replyStatus(PmixStatus.SUCCESS);
    upstream.stop();
  }
}
