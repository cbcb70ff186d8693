package org.jdvm.server.pmix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jdvm.core.JobKind;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.ConnectRequest;
import org.jdvm.pmix.frame.ToolConnectReply;
import org.jdvm.server.identity.Credentials;
import org.jdvm.server.identity.LoopbackPeers;

/**
 * The connect handshake and who a peer is (docs/protocol.md, "Who a peer is"; architecture.md §4).
 *
 * <p>First the transport: on the Unix socket the kernel's {@code SO_PEERCRED} uid must be the
 * DVM's; on loopback TCP the socket table must show the DVM's uid owning the peer's socket (the
 * {@code native} credential libpmix sends is self-reported and ignored), or the connect blob must
 * carry the DVM secret. Then the role: a tool flag makes a tool whose namespace the core mints or
 * accepts, or the scheduler with {@code jdvm.sched.cred}; a client flag names a launched process,
 * proved by its {@code jdvm.cred} or by the kernel showing the socket held by that process or a
 * descendant. Anything else is refused by closing the socket, the only refusal libpmix 4.2.2
 * notices (research REPORT.md §3.2).
 */
final class Admission {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /** How long a launched process may connect before its launch report reached the core. */
  private static final long PID_WAIT_MS = 10_000;

  private static final long CORE_WAIT_MS = 10_000;

  private final PmixEndpoint endpoint;
  private final Credentials credentials;
  private final int ownUid;
  private final String ownUser;

  Admission(PmixEndpoint endpoint, Credentials credentials) {
    this.endpoint = endpoint;
    this.credentials = credentials;
    this.ownUid = LoopbackPeers.ownUid();
    this.ownUser = ownUserName();
  }

  private static String ownUserName() {
    try {
      return Files.getOwner(Path.of("/proc/self")).getName();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read this process's owner from /proc", e);
    }
  }

  /**
   * Admits the peer, replies to its handshake and makes it reachable; or refuses it.
   *
   * @return who the peer is, or {@code null} when it is refused (the caller closes the socket)
   */
  Peer admit(Connection c, ConnectRequest request) throws IOException {
    WireFormat format = request.wireFormat();
    String why = transportRefusal(c, request);
    if (why != null) {
      return refuse(c, request, why);
    }
    ConnectFlag flag = request.flag();
    Peer peer =
        switch (flag) {
          case SIMPLE_CLIENT, SINGLETON_CLIENT -> client(c, request, format);
          case TOOL_NEEDS_ID, TOOL_GIVEN_ID, TOOL_CLIENT, LEGACY_TOOL, SCHEDULER_WITH_ID ->
              tool(c, request, format);
          default -> null;
        };
    if (peer == null) {
      return refuse(c, request, "no identity for flag " + flag);
    }
    LOG.log(
        System.Logger.Level.INFO,
        "peer="
            + c.index()
            + " proc="
            + peer.proc()
            + " role="
            + peer.role()
            + " wire="
            + request.bfrops()
            + " buffer="
            + (request.bufferType() == org.jdvm.pmix.BufferType.FULLY_DESCRIBED
                ? "described"
                : "plain")
            + " transport="
            + (c.unix() ? "unix" : "tcp"));
    return peer;
  }

  private Peer refuse(Connection c, ConnectRequest request, String why) {
    LOG.log(
        System.Logger.Level.WARNING,
        "peer=" + c.index() + " flag=" + request.flag() + " refused=\"" + why + "\"");
    return null;
  }

  // ---- the transport -------------------------------------------------------------------------

  private String transportRefusal(Connection c, ConnectRequest request) throws IOException {
    if (c.unix()) {
      UnixDomainPrincipal who = c.channel().getOption(ExtendedSocketOptions.SO_PEERCRED);
      return who.user().getName().equals(ownUser) ? null : "Unix peer of user " + who.user();
    }
    Optional<LoopbackPeers.SocketOwner> owner = LoopbackPeers.ownerOf(c.remoteTcp(), c.localTcp());
    if (owner.isPresent() && owner.get().uid() == ownUid) {
      return null;
    }
    if (credentials.isSecret(blobString(request, JdvmProtocol.SECRET))) {
      return null;
    }
    return owner.isPresent()
        ? "TCP peer of uid " + owner.get().uid()
        : "TCP peer not on this host's loopback, without the DVM secret";
  }

  // ---- launched processes --------------------------------------------------------------------

  private Peer client(Connection c, ConnectRequest request, WireFormat format) throws IOException {
    Proc proc = request.proc();
    String credential = blobString(request, JdvmProtocol.CREDENTIAL);
    boolean proved =
        credential != null
            ? credentials.isProcCredential(proc.nspace(), proc.rank(), credential)
            : !c.unix() && heldByTheProcess(c, proc);
    if (!proved || !isLiveProc(proc)) {
      return null;
    }
    Peer peer = new Peer(proc, Peer.Role.APPLICATION, format);
    c.admitted(peer);
    c.sendRaw(ClientConnectReply.accepted(c.index()).encode());
    endpoint.events.add(c);
    return peer;
  }

  /** The kernel says the peer's socket is held by the process that runs {@code proc}, or below. */
  private boolean heldByTheProcess(Connection c, Proc proc) throws IOException {
    Optional<LoopbackPeers.SocketOwner> owner = LoopbackPeers.ownerOf(c.remoteTcp(), c.localTcp());
    if (owner.isEmpty()) {
      return false;
    }
    long pid = awaitPid(proc);
    return pid > 0 && LoopbackPeers.heldByProcessTree(pid, owner.get().inode());
  }

  /** The pid the core has for {@code proc}, waiting (bounded) for its launch report. */
  private long awaitPid(Proc proc) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PID_WAIT_MS);
    while (true) {
      CompletableFuture<Void> started = endpoint.outcomes.procsStarted(proc.nspace());
      long pid = read(v -> pidOf(v.job(proc.nspace()).orElse(null), proc.rank()));
      long left = deadline - System.nanoTime();
      if (pid != 0 || left <= 0) {
        return pid;
      }
      try {
        started.get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        return 0;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      }
    }
  }

  /** The proc's pid; 0 while it is being launched; -1 when there is no such live proc. */
  private static long pidOf(JobView job, int rank) {
    if (job == null || job.state() == JobView.State.TERMINATED) {
      return -1;
    }
    for (ProcView p : job.procs()) {
      if (p.rank() == rank) {
        return p.state() == ProcView.State.ENDED ? -1 : p.pid();
      }
    }
    return -1;
  }

  private boolean isLiveProc(Proc proc) {
    return read(
        v ->
            v.job(proc.nspace())
                .filter(j -> j.kind() == JobKind.APPLICATION)
                .filter(j -> j.state() != JobView.State.TERMINATED)
                .map(j -> j.procs().stream().anyMatch(p -> p.rank() == proc.rank()))
                .orElse(false));
  }

  private <T> T read(Function<org.jdvm.core.query.CoreView, T> query) {
    try {
      return endpoint.dvm().read(query).get(CORE_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the controller did not answer: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // ---- tools and the scheduler ---------------------------------------------------------------

  private Peer tool(Connection c, ConnectRequest request, WireFormat format) {
    String schedulerCredential = blobString(request, JdvmProtocol.SCHEDULER_CREDENTIAL);
    boolean scheduler = schedulerCredential != null;
    if (scheduler && !credentials.isSchedulerCredential(schedulerCredential)) {
      return null;
    }
    if (request.flag() == ConnectFlag.SCHEDULER_WITH_ID && !scheduler) {
      return null;
    }
    boolean minted = request.flag().needsId() || request.proc() == null;
    String chosen = minted ? null : request.proc().nspace();
    Pending.Answer answer =
        register(
            id ->
                scheduler
                    ? new Request.RegisterScheduler(id, chosen)
                    : new Request.RegisterTool(id, chosen));
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
    Proc proc = new Proc(answer.info(PmixKeys.NSPACE), minted ? 0 : request.proc().rank());
    Peer peer = new Peer(proc, scheduler ? Peer.Role.SCHEDULER : Peer.Role.TOOL, format);
    c.admitted(peer);
    if (c.isClosed()) {
      c.depart(true);
      return null;
    }
    c.sendRaw(
        ToolConnectReply.accepted(request.flag().needsId() ? proc : null, endpoint.serverProc())
            .encode());
    endpoint.events.add(c);
    return peer;
  }

  private Pending.Answer register(Function<RequestId, Request> request) {
    CompletableFuture<Pending.Answer> answer = new CompletableFuture<>();
    RequestId id = endpoint.pending.open(answer::complete);
    endpoint
        .dvm()
        .submit(request.apply(id))
        .whenComplete(
            (o, t) -> {
              if (t != null) {
                endpoint.pending.complete(id, PmixStatus.ERR_UNREACH, List.of());
              }
            });
    try {
      return answer.get(CORE_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return new Pending.Answer(PmixStatus.ERR_TIMEOUT, List.of());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Pending.Answer(PmixStatus.ERR_TIMEOUT, List.of());
    }
  }

  private static String blobString(ConnectRequest request, String key) {
    for (Info i : request.infos()) {
      if (i.key().equals(key) && i.value().data() instanceof String s) {
        return s;
      }
    }
    return null;
  }
}
