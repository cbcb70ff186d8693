package org.jdvm.endpoint.serve;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.deliver.EventRouter;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.wireup.Member;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.PeerProof;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.ToolConnectReply;

/**
 * The connect handshake and who a peer is (docs/protocol.md "Who a peer is"; architecture.md §4).
 *
 * <p>What a peer must prove is {@link PeerProof}'s, the rule a node agent's relay admits its peers
 * by too. First the transport: on the Unix socket the kernel's {@code SO_PEERCRED} uid must be the
 * DVM's; on loopback TCP the socket table must show the DVM's uid owning the peer's socket (the
 * {@code native} credential libpmix sends is self-reported and ignored), or the connect blob must
 * carry the DVM secret. Then the role: a tool flag makes a tool whose namespace the core mints or
 * accepts, or the scheduler with {@code jdvm.sched.cred}; a client flag names a launched process,
 * proved by its {@code jdvm.cred} or by the kernel showing the socket held by that process or a
 * descendant, and live in the DVM. Anything else is refused by closing the socket, the only refusal
 * libpmix 4.2.2 notices (pmix-interop-notes.md §2).
 */
public final class Admission {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private static final long CORE_WAIT_MS = 10_000;

  private final Upstream upstream;
  private final EventRouter events;
  private final Proc serverProc;
  private final Credentials credentials;
  private final PeerProof proof;

  /**
   * @param events where an admitted connection becomes reachable
   * @param serverProc the server's own process, named in a tool's handshake reply
   */
  public Admission(
      Upstream upstream, EventRouter events, Proc serverProc, Credentials credentials) {
    this.upstream = upstream;
    this.events = events;
    this.serverProc = serverProc;
    this.credentials = credentials;
    this.proof = new PeerProof(credentials, "the DVM");
  }

  /**
   * Admits the peer, replies to its handshake and makes it reachable; or refuses it.
   *
   * @return who the peer is, or {@code null} when it is refused (the caller closes the socket)
   */
  public Peer admit(Connection c, ConnectRequest request) throws IOException {
    WireFormat format = request.wireFormat();
    PeerProof.Transport transport = proof.transport(c.channel(), c.unix(), request);
    if (transport.refused()) {
      return refuse(c, request, transport.refusal());
    }
    ConnectFlag flag = request.flag();
    Peer peer =
        switch (flag) {
          case SIMPLE_CLIENT, SINGLETON_CLIENT -> client(c, request, format, transport);
          case TOOL_NEEDS_ID, TOOL_GIVEN_ID, TOOL_CLIENT, LEGACY_TOOL, SCHEDULER_WITH_ID ->
              tool(c, request, format);
          default -> null;
        };
    if (peer == null) {
      return refuse(c, request, "no identity for flag " + flag);
    }
    logAdmitted(
        c,
        peer,
        " wire="
            + request.bfrops()
            + " buffer="
            + (request.bufferType() == org.jdvm.pmix.BufferType.FULLY_DESCRIBED
                ? "described"
                : "plain")
            + " transport="
            + (c.unix() ? "unix" : "tcp"));
    return peer;
  }

  /** The log line of an admitted peer: who, in which role, then {@code how}. */
  private static void logAdmitted(Connection c, Peer peer, String how) {
    LOG.log(
        System.Logger.Level.INFO,
        "peer=" + c.index() + " proc=" + peer.proc() + " role=" + peer.role() + how);
  }

  /**
   * Answers a jdvm client's challenge right after the handshake reply (docs/protocol.md "Who the
   * DVM is"): the client sends nothing more until this proved it talks to the DVM whose secret it
   * holds.
   */
  private void prove(Connection c, ConnectRequest request, Peer peer) {
    String nonce = PeerProof.blobString(request, JdvmProtocol.CHALLENGE);
    if (nonce == null || nonce.length() > 256) {
      return;
    }
    boolean asProcess =
        peer.role() == Peer.Role.APPLICATION
            && PeerProof.blobString(request, JdvmProtocol.CREDENTIAL) != null;
    c.sendRaw(
        asProcess
            ? credentials.procProof(peer.proc().nspace(), peer.proc().rank(), nonce)
            : credentials.proof(nonce));
  }

  private Peer refuse(Connection c, ConnectRequest request, String why) {
    LOG.log(
        System.Logger.Level.WARNING,
        "peer=" + c.index() + " flag=" + request.flag() + " refused=\"" + why + "\"");
    return null;
  }

  // ---- peers a node agent admitted ------------------------------------------------------------

  /**
   * A peer that a node agent admitted on its host, as the agent vouches for it (docs/protocol.md
   * "Node agents"). The agent authenticated it as this endpoint would (the kernel's uid, the
   * process's credential or socket); the agent itself is trusted because it proved the DVM's
   * secret, but only for processes that run on its own node.
   *
   * @param node the agent's node
   * @param tool whether the peer is a tool (else a launched process or a helper acting for one)
   * @param proc the process it acts for; for a tool the name it chose, {@code null} to have one
   *     minted
   * @param format the peer's wire format, as it announced it
   * @param uid the uid owning the peer's socket on the agent's host
   * @param pid the process holding the peer's socket, 0 when the agent could not tell
   */
  public record Vouched(
      String node, boolean tool, Proc proc, WireFormat format, long uid, long pid) {
    public Vouched {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(format, "format");
      if (!tool) {
        Objects.requireNonNull(proc, "proc");
      }
    }
  }

  /**
   * Admits a peer its node agent vouches for, replies to its handshake through the carried
   * connection and makes it reachable; or refuses it: a launched process must be live and placed on
   * the vouching agent's node.
   *
   * @return who the peer is, or {@code null} when it is refused (the caller closes the connection)
   */
  public Peer admitVouched(Connection c, Vouched v) {
    Peer peer;
    if (v.tool()) {
      peer = registerTool(c, null, false, v.proc(), v.proc() == null, v.format());
    } else {
      String node = nodeOf(v.proc());
      if (!v.node().equals(node)) {
        LOG.log(
            System.Logger.Level.WARNING,
            "peer="
                + c.index()
                + " proc="
                + v.proc()
                + " refused=\"vouched for by the agent of "
                + v.node()
                + ", runs "
                + (node == null ? "nowhere" : "on " + node)
                + "\"");
        return null;
      }
      peer = new Peer(v.proc(), Peer.Role.APPLICATION, v.format());
      c.admitted(peer);
      c.sendRaw(ClientConnectReply.accepted(c.index()).encode());
      events.add(c);
    }
    if (peer != null) {
      logAdmitted(
          c, peer, " transport=relay node=" + v.node() + " uid=" + v.uid() + " pid=" + v.pid());
    }
    return peer;
  }

  /** The node a live launched process runs on; {@code null} when there is no such process. */
  private String nodeOf(Proc proc) {
    if (!isLiveProc(proc)) {
      return null;
    }
    return await(upstream.member(proc), Optional.<Member>empty()).map(Member::node).orElse(null);
  }

  // ---- launched processes --------------------------------------------------------------------

  private Peer client(
      Connection c, ConnectRequest request, WireFormat format, PeerProof.Transport transport) {
    Proc proc = request.proc();
    if (!proof.process(request, transport, upstream::awaitPid).proved() || !isLiveProc(proc)) {
      return null;
    }
    Peer peer = new Peer(proc, Peer.Role.APPLICATION, format);
    c.admitted(peer);
    c.sendRaw(ClientConnectReply.accepted(c.index()).encode());
    prove(c, request, peer);
    events.add(c);
    return peer;
  }

  private boolean isLiveProc(Proc proc) {
    return await(upstream.isLiveProc(proc), false);
  }

  private static <T> T await(CompletableFuture<T> f, T otherwise) {
    try {
      return f.get(CORE_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(System.Logger.Level.WARNING, "the DVM did not answer an admission check: " + e);
      return otherwise;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return otherwise;
    }
  }

  // ---- tools and the scheduler ---------------------------------------------------------------

  private Peer tool(Connection c, ConnectRequest request, WireFormat format) {
    String schedulerCredential = PeerProof.blobString(request, JdvmProtocol.SCHEDULER_CREDENTIAL);
    boolean scheduler = schedulerCredential != null;
    if (scheduler && !credentials.isSchedulerCredential(schedulerCredential)) {
      return null;
    }
    if (request.flag() == ConnectFlag.SCHEDULER_WITH_ID && !scheduler) {
      return null;
    }
    boolean minted = request.flag().needsId() || request.proc() == null;
    return registerTool(
        c, request, scheduler, minted ? null : request.proc(), request.flag().needsId(), format);
  }

  /**
   * Registers a tool (or the scheduler) with the DVM, replies to its handshake and makes it
   * reachable.
   *
   * @param request its connect request, or {@code null} for a peer a node agent vouched for (the
   *     agent answered its handshake, so there is no challenge to prove the secret for)
   * @param chosenProc the namespace and rank it named, or {@code null} for one the DVM mints
   * @param needsId whether the handshake reply names the tool's namespace
   */
  private Peer registerTool(
      Connection c,
      ConnectRequest request,
      boolean scheduler,
      Proc chosenProc,
      boolean needsId,
      WireFormat format) {
    boolean minted = chosenProc == null;
    String chosen = minted ? null : chosenProc.nspace();
    if (chosen != null && upstream.reattach(chosen)) {
      // The client of a namespace that outlived a controller restart reconnects to it.
      return admitTool(c, request, chosenProc, scheduler, needsId, format);
    }
    RequestId id = upstream.nextId();
    Upstream.Answer answer =
        register(
            scheduler
                ? new Request.RegisterScheduler(id, chosen)
                : new Request.RegisterTool(id, chosen),
            id);
    if (answer.status() != PmixStatus.SUCCESS) {
      LOG.log(
          System.Logger.Level.INFO,
          "peer="
              + c.index()
              + " registration="
              + PmixStatus.name(answer.status())
              + " nspace="
              + chosen);
      return null;
    }
    Proc proc = new Proc(answer.info(PmixKeys.NSPACE), minted ? 0 : chosenProc.rank());
    return admitTool(c, request, proc, scheduler, needsId, format);
  }

  private Peer admitTool(
      Connection c,
      ConnectRequest request,
      Proc proc,
      boolean scheduler,
      boolean needsId,
      WireFormat format) {
    Peer peer = new Peer(proc, scheduler ? Peer.Role.SCHEDULER : Peer.Role.TOOL, format);
    c.admitted(peer);
    if (c.isClosed()) {
      return peer; // the caller sees it closed, and reports the departure
    }
    c.sendRaw(ToolConnectReply.accepted(needsId ? proc : null, serverProc).encode());
    if (request != null) {
      prove(c, request, peer);
    }
    events.add(c);
    return peer;
  }

  private Upstream.Answer register(Request request, RequestId id) {
    return await(
        upstream.submit(id, request),
        new Upstream.Answer(PmixStatus.ERR_TIMEOUT, java.util.List.of()));
  }
}
