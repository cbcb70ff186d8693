package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One TCP socket of this host looked up by its exact four-tuple in the kernel's socket hash tables,
 * through the {@code sock_diag} netlink interface (Linux {@code sock_diag(7)}; uapi {@code
 * linux/netlink.h}, {@code linux/sock_diag.h}, {@code linux/inet_diag.h}): a {@code
 * SOCK_DIAG_BY_FAMILY} request without {@code NLM_F_DUMP}, whose {@code inet_diag_req_v2.id} names
 * the socket, answered by one {@code inet_diag_msg} carrying its owner's uid and its inode. The
 * cost is that of one hash look-up, however many sockets the host holds; reading {@code
 * /proc/net/tcp} costs one line per socket.
 *
 * <p>Each look-up opens its own netlink socket ({@code socket}, {@code sendto}, {@code recv},
 * {@code close}): no state is shared, so any thread may call it. The kernel answers a {@code
 * sock_diag} request while it is sent, so the {@code recv} never waits.
 */
public final class SockDiag {
  private static final int AF_INET = 2;
  private static final int AF_INET6 = 10;
  private static final int AF_NETLINK = 16;
  private static final int SOCK_RAW = 3;
  private static final int SOCK_CLOEXEC = 0x80000;
  private static final int NETLINK_SOCK_DIAG = 4;
  private static final int IPPROTO_TCP = 6;
  private static final short SOCK_DIAG_BY_FAMILY = 20;
  private static final short NLMSG_ERROR = 2;
  private static final short NLM_F_REQUEST = 1;
  private static final int MSG_DONTWAIT = 0x40;
  private static final int ENOENT = 2;

  /** {@code struct nlmsghdr}. */
  private static final int NLMSG_HDRLEN = 16;

  /** {@code struct inet_diag_req_v2}: family, protocol, ext, pad, states, then the socket id. */
  private static final int REQ_LEN = 56;

  /** {@code struct inet_diag_msg}: four bytes, the socket id, expires, queues, uid, inode. */
  private static final int MSG_LEN = 72;

  /**
   * {@code struct inet_diag_sockid}: ports, source and destination, interface (@36), cookie (@40).
   */
  private static final int ID_LEN = 48;

  private static final int TCP_TIME_WAIT = 6;
  private static final int TCP_LISTEN = 10;
  private static final int TCP_NEW_SYN_RECV = 12;

  private static final AtomicInteger SEQ = new AtomicInteger();

  private static final MethodHandle SOCKET;
  private static final MethodHandle SENDTO;
  private static final MethodHandle RECV;
  private static final MethodHandle CLOSE;
  private static final Throwable UNAVAILABLE;

  static {
    MethodHandle[] h = new MethodHandle[4];
    Throwable failure = Libc.UNAVAILABLE;
    if (failure == null) {
      try {
        SymbolLookup libc = Libc.LINKER.defaultLookup();
        h[0] = link(libc, "socket", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
        h[1] =
            link(
                libc, "sendto", JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                JAVA_INT);
        h[2] = link(libc, "recv", JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT);
        h[3] = link(libc, "close", JAVA_INT, JAVA_INT);
      } catch (Throwable t) {
        failure = t;
      }
    }
    SOCKET = h[0];
    SENDTO = h[1];
    RECV = h[2];
    CLOSE = h[3];
    UNAVAILABLE = failure;
  }

  private SockDiag() {}

  /** What the kernel says of one socket: its state ({@code TCP_ESTABLISHED} is 1), uid, inode. */
  public record Socket(int state, int uid, long inode) {}

  /** Why the calls cannot be made here, or empty if they can (the kernel may still refuse them). */
  public static Optional<String> unavailable() {
    return UNAVAILABLE == null ? Optional.empty() : Optional.of(String.valueOf(UNAVAILABLE));
  }

  /**
   * The TCP socket of this host whose local address is {@code local} and whose remote address is
   * {@code remote}, if it is open (not listening, not in {@code TIME_WAIT}: a socket some process
   * holds). An IPv4 four-tuple is looked up as IPv4 whichever family the socket was opened with
   * (the kernel keeps an IPv4-mapped IPv6 socket in the IPv4 tables).
   *
   * @throws Posix.PosixException when the kernel refuses the request (no netlink, no {@code
   *     inet_diag}); a socket that is not there is an empty answer, not a refusal
   */
  public static Optional<Socket> tcp(InetSocketAddress local, InetSocketAddress remote)
      throws Posix.PosixException {
    if (UNAVAILABLE != null) {
      throw new Posix.PosixException("sock_diag: " + UNAVAILABLE, 38); // ENOSYS
    }
    byte[] src = v4(local.getAddress().getAddress());
    byte[] dst = v4(remote.getAddress().getAddress());
    boolean inet = src != null && dst != null;
    if (!inet) {
      src = local.getAddress().getAddress();
      dst = remote.getAddress().getAddress();
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      int fd = (int) SOCKET.invokeExact(st, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
      if (fd < 0) {
        throw new Posix.PosixException("socket(AF_NETLINK, NETLINK_SOCK_DIAG)", errno(st));
      }
      try {
        int seq = SEQ.incrementAndGet();
        MemorySegment req = request(arena, seq, inet ? AF_INET : AF_INET6, local, remote, src, dst);
        MemorySegment to = arena.allocate(12, 4); // sockaddr_nl: the kernel is port 0
        to.set(JAVA_SHORT, 0, (short) AF_NETLINK);
        long sent =
            (long) SENDTO.invokeExact(st, fd, req, req.byteSize(), 0, to, (int) to.byteSize());
        if (sent < 0) {
          throw new Posix.PosixException("sendto(sock_diag)", errno(st));
        }
        MemorySegment buf = arena.allocate(8192, 8);
        long n = (long) RECV.invokeExact(st, fd, buf, buf.byteSize(), MSG_DONTWAIT);
        if (n < 0) {
          throw new Posix.PosixException("recv(sock_diag)", errno(st));
        }
        return answer(buf.asSlice(0, n), seq, src, dst, local.getPort(), remote.getPort());
      } finally {
        int closed = (int) CLOSE.invokeExact(st, fd);
      }
    } catch (Posix.PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw Posix.rethrow(t);
    }
  }

  /** A {@code SOCK_DIAG_BY_FAMILY} request for the one TCP socket of this four-tuple. */
  private static MemorySegment request(
      Arena arena,
      int seq,
      int family,
      InetSocketAddress local,
      InetSocketAddress remote,
      byte[] src,
      byte[] dst) {
    MemorySegment m = arena.allocate(NLMSG_HDRLEN + REQ_LEN, 4);
    m.set(JAVA_INT, 0, NLMSG_HDRLEN + REQ_LEN);
    m.set(JAVA_SHORT, 4, SOCK_DIAG_BY_FAMILY);
    m.set(JAVA_SHORT, 6, NLM_F_REQUEST);
    m.set(JAVA_INT, 8, seq);
    MemorySegment r = m.asSlice(NLMSG_HDRLEN);
    r.set(JAVA_BYTE, 0, (byte) family);
    r.set(JAVA_BYTE, 1, (byte) IPPROTO_TCP);
    r.set(JAVA_INT, 4, -1); // idiag_states: every state (an exact look-up ignores it)
    sockId(r.asSlice(8, ID_LEN), local.getPort(), remote.getPort(), src, dst);
    r.set(JAVA_INT, 8 + 40, -1); // INET_DIAG_NOCOOKIE twice: no cookie to check
    r.set(JAVA_INT, 8 + 44, -1);
    return m;
  }

  /** {@code struct inet_diag_sockid} without its cookie: ports and addresses in network order. */
  private static void sockId(MemorySegment id, int sport, int dport, byte[] src, byte[] dst) {
    id.set(JAVA_BYTE, 0, (byte) (sport >>> 8));
    id.set(JAVA_BYTE, 1, (byte) sport);
    id.set(JAVA_BYTE, 2, (byte) (dport >>> 8));
    id.set(JAVA_BYTE, 3, (byte) dport);
    MemorySegment.copy(MemorySegment.ofArray(src), 0, id, 4, src.length);
    MemorySegment.copy(MemorySegment.ofArray(dst), 0, id, 20, dst.length);
  }

  /**
   * The kernel's answer: an {@code inet_diag_msg} for our sequence number whose id is the one asked
   * for, or {@code NLMSG_ERROR} ({@code ENOENT}: no such socket).
   */
  private static Optional<Socket> answer(
      MemorySegment reply, int seq, byte[] src, byte[] dst, int sport, int dport)
      throws Posix.PosixException {
    if (reply.byteSize() < NLMSG_HDRLEN + 4) {
      throw new Posix.PosixException("sock_diag: a short answer", 71); // EPROTO
    }
    short type = reply.get(JAVA_SHORT, 4);
    if (reply.get(JAVA_INT, 8) != seq) {
      throw new Posix.PosixException("sock_diag: an answer to another request", 71);
    }
    if (type == NLMSG_ERROR) {
      int error = -reply.get(JAVA_INT, NLMSG_HDRLEN);
      if (error == ENOENT) {
        return Optional.empty();
      }
      throw new Posix.PosixException("sock_diag", error);
    }
    if (type != SOCK_DIAG_BY_FAMILY || reply.byteSize() < NLMSG_HDRLEN + MSG_LEN) {
      throw new Posix.PosixException("sock_diag: an answer of type " + type, 71);
    }
    MemorySegment msg = reply.asSlice(NLMSG_HDRLEN);
    int state = msg.get(JAVA_BYTE, 1) & 0xff;
    boolean same =
        port(msg, 4) == sport
            && port(msg, 6) == dport
            && java.util.Arrays.equals(address(msg, 8), src)
            && java.util.Arrays.equals(address(msg, 24), dst);
    if (!same || state == TCP_LISTEN || state == TCP_TIME_WAIT || state == TCP_NEW_SYN_RECV) {
      return Optional.empty();
    }
    return Optional.of(
        new Socket(state, msg.get(JAVA_INT, 64), Integer.toUnsignedLong(msg.get(JAVA_INT, 68))));
  }

  private static int port(MemorySegment msg, long at) {
    return (msg.get(JAVA_BYTE, at) & 0xff) << 8 | msg.get(JAVA_BYTE, at + 1) & 0xff;
  }

  /**
   * An address of the answer's id, as it was asked: an IPv4 socket's is the first four bytes, an
   * IPv6 socket's all sixteen (an IPv4-mapped one read as IPv4, the way it was asked for).
   */
  private static byte[] address(MemorySegment msg, long at) {
    int family = msg.get(JAVA_BYTE, 0) & 0xff;
    byte[] a = msg.asSlice(at, family == AF_INET ? 4 : 16).toArray(JAVA_BYTE);
    byte[] mapped = a.length == 16 ? v4(a) : null;
    return mapped != null ? mapped : a;
  }

  /** The IPv4 address of an IPv4 or IPv4-mapped IPv6 address, else {@code null}. */
  private static byte[] v4(byte[] b) {
    if (b.length == 4) {
      return b;
    }
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return null;
      }
    }
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff
        ? new byte[] {b[12], b[13], b[14], b[15]}
        : null;
  }

  private static int errno(MemorySegment state) {
    return (int) Libc.ERRNO.get(state, 0L);
  }

  private static MethodHandle link(
      SymbolLookup lib,
      String name,
      java.lang.foreign.MemoryLayout ret,
      java.lang.foreign.MemoryLayout... args) {
    return Libc.LINKER.downcallHandle(
        lib.find(name).orElseThrow(() -> new UnsupportedOperationException("no " + name)),
        FunctionDescriptor.of(ret, args),
        Linker.Option.captureCallState("errno"));
  }
}
