package org.jdvm.host.identity;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.frame.ConnectRequest;

/**
 * What a peer connecting to one of jdvm's PMIx listeners on this host must prove, and how it is
 * checked (docs/protocol.md "Who a peer is"): the one rule the controller's endpoint and a node
 * agent's relay both admit peers by.
 *
 * <p>First the transport ({@link #transport}): on the Unix socket the kernel's {@code SO_PEERCRED}
 * user must be this process's; on loopback TCP the kernel's socket table must show this process's
 * uid owning the peer's socket, or the connect blob must carry the DVM secret ({@code jdvm.secret};
 * the {@code native} credential libpmix sends is self-reported and proves nothing). Then a launched
 * process, which names itself in its handshake, proves that name ({@link #process}): by its {@code
 * jdvm.cred} for that name, or, over TCP, by the kernel showing its socket held by the process
 * launched under that name or by a descendant of it.
 *
 * <p>What is not decided here is each side's: which flags make a client or a tool, whether the
 * process is live and where it runs (the controller), a tool's or the scheduler's registration.
 */
public final class PeerProof {
  /** How long a launched process may connect before its launcher knows its pid. */
  public static final long PID_WAIT_MS = 10_000;

  /** The pids of launched processes, as their launcher knows them. */
  @FunctionalInterface
  public interface Pids {
    /**
     * The pid of {@code proc}, waiting at most {@code timeoutMs} for its launch; 0 or less when it
     * is not known in time or there is no such process. Blocks.
     */
    long awaitPid(Proc proc, long timeoutMs);
  }

  /**
   * What the transport showed.
   *
   * @param uid the uid owning the peer's socket: this process's on the Unix socket; over TCP the
   *     owner's in the kernel's table, -1 when the table does not show it
   * @param owner over TCP, the peer's socket as the kernel's table shows it, if it does
   * @param unix whether the peer came over the Unix socket
   * @param refusal why the transport proves nothing, or {@code null} when it is accepted
   */
  public record Transport(
      long uid, Optional<LoopbackPeers.SocketOwner> owner, boolean unix, String refusal) {
    public Transport {
      Objects.requireNonNull(owner, "owner");
    }

    public boolean refused() {
      return refusal != null;
    }
  }

  /**
   * What a launched process proved.
   *
   * @param pid the process the kernel showed holding the socket; 0 when the credential proved it
   * @param refusal why it proved nothing, or {@code null} when it proved its name
   */
  public record Proof(long pid, String refusal) {
    public boolean proved() {
      return refusal == null;
    }

    static Proof refused(String why) {
      return new Proof(0, why);
    }
  }

  private final Credentials credentials;
  private final String launcher;
  private final int ownUid;
  private final String ownUser;

  /**
   * The rule for this process's listeners.
   *
   * @param credentials the DVM's secret
   * @param launcher who launches the processes that connect here, as a refusal names it ("this
   *     agent")
   */
  public PeerProof(Credentials credentials, String launcher) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.ownUid = LoopbackPeers.ownUid();
    try {
      this.ownUser = Files.getOwner(Path.of("/proc/self")).getName();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read this process's owner from /proc", e);
    }
  }

  /**
   * As {@link #transport(SocketChannel, boolean, ConnectRequest)} for a loopback TCP peer that
   * sends no connect blob (a simple PMI client): only the kernel's socket table can accept it.
   */
  public Transport transport(SocketChannel s) throws IOException {
    return transport(s, false, null);
  }

  /** Who the kernel says holds the peer's end of {@code s}, and whether that is enough. */
  public Transport transport(SocketChannel s, boolean unix, ConnectRequest request)
      throws IOException {
    if (unix) {
      UnixDomainPrincipal who = s.getOption(ExtendedSocketOptions.SO_PEERCRED);
      return who.user().getName().equals(ownUser)
          ? new Transport(ownUid, Optional.empty(), true, null)
          : new Transport(-1, Optional.empty(), true, "Unix peer of user " + who.user());
    }
    Optional<LoopbackPeers.SocketOwner> owner =
        LoopbackPeers.ownerOf(
            (InetSocketAddress) s.getRemoteAddress(), (InetSocketAddress) s.getLocalAddress());
    long uid = owner.map(o -> (long) o.uid()).orElse(-1L);
    boolean ours = owner.isPresent() && owner.get().uid() == ownUid;
    if (ours || credentials.isSecret(blobString(request, JdvmProtocol.SECRET))) {
      return new Transport(uid, owner, false, null);
    }
    return new Transport(
        uid,
        owner,
        false,
        owner.isPresent()
            ? "TCP peer of uid " + owner.get().uid()
            : "TCP peer not on this host's loopback, without the DVM secret");
  }

  /**
   * Whether the launched process {@code request} names ({@link ConnectRequest#proc}) proved that
   * name, over a transport {@link #transport} accepted.
   *
   * @param pids asked for the process's pid only when there is no credential and the kernel names
   *     the socket's owner
   */
  public Proof process(ConnectRequest request, Transport transport, Pids pids) {
    Proc proc = request.proc();
    String credential = blobString(request, JdvmProtocol.CREDENTIAL);
    if (credential != null) {
      return credentials.isProcCredential(proc.nspace(), proc.rank(), credential)
          ? new Proof(0, null)
          : Proof.refused("a credential that is not " + proc + "'s");
    }
    return heldBy(proc, transport, pids);
  }

  /**
   * Whether the kernel shows the peer's socket held by {@code proc} as it was launched, or by a
   * descendant of it: the proof of a peer that claims a name without a credential (a PMIx client
   * over TCP, or a simple PMI client's {@code PMI_ID}, docs/protocol.md "Simple PMI").
   */
  public Proof heldBy(Proc proc, Transport transport, Pids pids) {
    if (transport.unix() || transport.owner().isEmpty()) {
      return Proof.refused(proc + " without its credential, on a socket the kernel cannot name");
    }
    long pid = pids.awaitPid(proc, PID_WAIT_MS);
    if (pid <= 0 || !LoopbackPeers.heldByProcessTree(pid, transport.owner().get().inode())) {
      return Proof.refused("the socket is not held by " + proc + " as " + launcher + " runs it");
    }
    return new Proof(pid, null);
  }

  /** The string the connect blob carries under {@code key}, or {@code null}. */
  public static String blobString(ConnectRequest request, String key) {
    if (request == null) {
      return null;
    }
    for (Info i : request.infos()) {
      if (i.key().equals(key) && i.value().data() instanceof String s) {
        return s;
      }
    }
    return null;
  }

  /**
   * The working directory of local process {@code pid} (a proved peer's, whose children run there
   * unless told otherwise), or {@code null} if it cannot be read.
   */
  public static String cwdOf(long pid) {
    try {
      return java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/" + pid + "/cwd"))
          .toString();
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }
}
