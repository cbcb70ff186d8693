package org.jdvm.agent.relay;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.PeerProof;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.frame.ConnectRequest;

/**
 * Who a peer of a node agent's relay is (docs/protocol.md "Who a peer is", "Node agents"), decided
 * on the agent's host by the rule the controller's endpoint admits its own peers by ({@link
 * PeerProof}): the transport first (the Unix socket's {@code SO_PEERCRED} user, or the loopback
 * socket's owner in the kernel's table, must be this agent's; or the connect blob carries the DVM
 * secret), then the role: a client flag names a launched process, proved by its {@code jdvm.cred}
 * or by the kernel showing the socket held by that process (as the agent launched it) or a
 * descendant; a tool flag makes a tool, whose name the controller mints or accepts. The scheduler
 * connects to the controller, never through a relay.
 *
 * <p>What it cannot decide here the controller does: whether the process is live and placed on this
 * agent's node, and the tool's registration.
 */
public final class LocalAdmission {
  /** An identity to vouch for, or why there is none. */
  record Verdict(PeerIdentity identity, String refusal) {
    static Verdict refused(String why) {
      return new Verdict(null, why);
    }
  }

  private final PeerProof proof;
  private final RelayHooks.Pids pids;

  LocalAdmission(Credentials credentials, RelayHooks.Pids pids) {
    this.proof = new PeerProof(credentials, "this agent");
    this.pids = pids;
  }

  Verdict admit(SocketChannel s, boolean overUnix, ConnectRequest request) throws IOException {
    PeerProof.Transport t = proof.transport(s, overUnix, request);
    if (t.refused()) {
      return Verdict.refused(t.refusal());
    }
    return switch (request.flag()) {
      case SIMPLE_CLIENT, SINGLETON_CLIENT -> client(request, t);
      case TOOL_NEEDS_ID, TOOL_GIVEN_ID, TOOL_CLIENT, LEGACY_TOOL -> tool(request, t.uid());
      default -> Verdict.refused("no identity for flag " + request.flag() + " at a node agent");
    };
  }

  private Verdict client(ConnectRequest request, PeerProof.Transport t) {
    Proc proc = request.proc();
    PeerProof.Proof p = proof.process(request, t, pids::awaitPid);
    if (!p.proved()) {
      return Verdict.refused(p.refusal());
    }
    return new Verdict(
        new PeerIdentity(
            PeerIdentity.Kind.CLIENT, proc, t.uid(), -1, p.pid(), request.wireFormat()),
        null);
  }

  private Verdict tool(ConnectRequest request, long uid) {
    if (PeerProof.blobString(request, JdvmProtocol.SCHEDULER_CREDENTIAL) != null) {
      return Verdict.refused("the scheduler connects to the controller, not to a node agent");
    }
    Proc chosen = request.flag().needsId() ? null : request.proc();
    return new Verdict(
        new PeerIdentity(PeerIdentity.Kind.TOOL, chosen, uid, -1, 0, request.wireFormat()), null);
  }
}
