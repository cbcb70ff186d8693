package org.jdvm.agent.relay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.LoopbackPeers;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.frame.ConnectRequest;

/**
 * Who a peer of a node agent's relay is (docs/protocol.md "Who a peer is", "Node agents"), decided
 * on the agent's host by the rules the controller's endpoint applies ({@code
 * pmix.serve.Admission}): the transport first (the Unix socket's {@code SO_PEERCRED} user, or the
 * loopback socket's owner in the kernel's table, must be this agent's; or the connect blob carries
 * the DVM secret), then the role: a client flag names a launched process, proved by its {@code
 * jdvm.cred} or by the kernel showing the socket held by that process (as the agent launched it) or
 * a descendant; a tool flag makes a tool, whose name the controller mints or accepts. The scheduler
 * connects to the controller, never through a relay.
 *
 * <p>What it cannot decide here the controller does: whether the process is live and placed on this
 * agent's node, and the tool's registration.
 */
public final class LocalAdmission {
  /** How long a launched process may connect before the agent knows its pid. */
  private static final long PID_WAIT_MS = 10_000;

  /** An identity to vouch for, or why there is none. */
  record Verdict(PeerIdentity identity, String refusal) {
    static Verdict refused(String why) {
      return new Verdict(null, why);
    }
  }

  private final Credentials credentials;
  private final PmixRelay.Pids pids;
  private final int ownUid;
  private final String ownUser;

  LocalAdmission(Credentials credentials, PmixRelay.Pids pids) {
    this.credentials = credentials;
    this.pids = pids;
    this.ownUid = LoopbackPeers.ownUid();
    try {
      this.ownUser = Files.getOwner(Path.of("/proc/self")).getName();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read this process's owner from /proc", e);
    }
  }

  Verdict admit(SocketChannel s, boolean overUnix, ConnectRequest request) throws IOException {
    long uid;
    Optional<LoopbackPeers.SocketOwner> owner = Optional.empty();
    if (overUnix) {
      UnixDomainPrincipal who = s.getOption(ExtendedSocketOptions.SO_PEERCRED);
      if (!who.user().getName().equals(ownUser)) {
        return Verdict.refused("Unix peer of user " + who.user());
      }
      uid = ownUid;
    } else {
      owner =
          LoopbackPeers.ownerOf(
              (InetSocketAddress) s.getRemoteAddress(), (InetSocketAddress) s.getLocalAddress());
      boolean ours = owner.isPresent() && owner.get().uid() == ownUid;
      if (!ours && !credentials.isSecret(blobString(request, JdvmProtocol.SECRET))) {
        return Verdict.refused(
            owner.isPresent()
                ? "TCP peer of uid " + owner.get().uid()
                : "TCP peer not on this host's loopback, without the DVM secret");
      }
      uid = owner.map(o -> (long) o.uid()).orElse(-1L);
    }
    return switch (request.flag()) {
      case SIMPLE_CLIENT, SINGLETON_CLIENT -> client(request, overUnix, owner, uid);
      case TOOL_NEEDS_ID, TOOL_GIVEN_ID, TOOL_CLIENT, LEGACY_TOOL -> tool(request, uid);
      default -> Verdict.refused("no identity for flag " + request.flag() + " at a node agent");
    };
  }

  private Verdict client(
      ConnectRequest request,
      boolean overUnix,
      Optional<LoopbackPeers.SocketOwner> owner,
      long uid) {
    Proc proc = request.proc();
    String credential = blobString(request, JdvmProtocol.CREDENTIAL);
    long pid = 0;
    if (credential != null) {
      if (!credentials.isProcCredential(proc.nspace(), proc.rank(), credential)) {
        return Verdict.refused("a credential that is not " + proc + "'s");
      }
    } else if (overUnix || owner.isEmpty()) {
      return Verdict.refused(proc + " without its credential, on a socket the kernel cannot name");
    } else {
      long launched = pids.awaitPid(proc, PID_WAIT_MS);
      if (launched <= 0 || !LoopbackPeers.heldByProcessTree(launched, owner.get().inode())) {
        return Verdict.refused("the socket is not held by " + proc + " as this agent runs it");
      }
      pid = launched;
    }
    return new Verdict(
        new PeerIdentity(PeerIdentity.Kind.CLIENT, proc, uid, -1, pid, request.wireFormat()), null);
  }

  private Verdict tool(ConnectRequest request, long uid) {
    if (blobString(request, JdvmProtocol.SCHEDULER_CREDENTIAL) != null) {
      return Verdict.refused("the scheduler connects to the controller, not to a node agent");
    }
    Proc chosen = request.flag().needsId() ? null : request.proc();
    return new Verdict(
        new PeerIdentity(PeerIdentity.Kind.TOOL, chosen, uid, -1, 0, request.wireFormat()), null);
  }

  private static String blobString(ConnectRequest request, String key) {
    for (Info i : request.infos()) {
      if (i.key().equals(key) && i.value().data() instanceof String str) {
        return str;
      }
    }
    return null;
  }
}
