package org.jdvm.host.identity;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdvm.host.os.Posix;
import org.jdvm.host.os.SockDiag;

/**
 * Who is at the other end of a TCP connection from this host, as the kernel says: its socket found
 * by the exact four-tuple through {@code sock_diag} netlink ({@link SockDiag}), or, where the
 * kernel refuses that, in its socket tables ({@code /proc/net/tcp}, {@code /proc/net/tcp6}).
 *
 * <p>libpmix 4.x peers only speak TCP and their {@code native} credential is a self-reported
 * uid/gid, so it proves nothing. For a loopback connection the kernel knows better: it records the
 * uid that owns the peer's socket and its inode, and {@code /proc/<pid>/fd} shows which process
 * holds that inode. This is how jdvm authenticates C peers without a shared secret (architecture.md
 * §4). Naming a connection's owner costs one look-up however many sockets the host holds (with the
 * tables, one line per socket); finding the process reads only the claimed process's descriptors,
 * and its descendants' only when it does not hold the socket itself.
 */
public final class LoopbackPeers {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");
  private static final Path PROC = Path.of("/proc");

  private LoopbackPeers() {}

  /** The owner of the peer's end of a connection: its uid and the socket's inode. */
  public record SocketOwner(int uid, long inode) {}

  /**
   * Finds the socket whose local address is {@code peer} and whose remote address is {@code local},
   * i.e. the peer's end of our connection.
   *
   * @param peer the remote address of our accepted socket
   * @param local the local address of our accepted socket
   */
  public static Optional<SocketOwner> ownerOf(InetSocketAddress peer, InetSocketAddress local) {
    if (Kernel.refusal() == null) {
      try {
        return SockDiag.tcp(peer, local).map(s -> new SocketOwner(s.uid(), s.inode()));
      } catch (Posix.PosixException e) {
        // Refused now though it answered before (a seccomp filter, say): read the tables.
        LOG.log(System.Logger.Level.DEBUG, "sock_diag refused a look-up: " + e.getMessage());
      }
    }
    return ownerFromTables(peer, local);
  }

  /**
   * As {@link #ownerOf}, read from the kernel's socket tables: one line per socket of the host, for
   * a host whose kernel refuses {@code sock_diag} (and to measure against).
   */
  public static Optional<SocketOwner> ownerFromTables(
      InetSocketAddress peer, InetSocketAddress local) {
    for (String table : List.of("net/tcp", "net/tcp6")) {
      Optional<SocketOwner> o = search(PROC.resolve(table), peer, local);
      if (o.isPresent()) {
        return o;
      }
    }
    return Optional.empty();
  }

  /**
   * How {@link #ownerOf} asks the kernel on this host: {@code "sock_diag"} (one look-up by the
   * exact four-tuple) or {@code "/proc/net/tcp"} (a scan of every socket's line).
   */
  public static String lookup() {
    return Kernel.refusal() == null ? "sock_diag" : "/proc/net/tcp";
  }

  /**
   * Whether the kernel answers {@code sock_diag} look-ups here, decided once by looking up a
   * loopback connection of this process, and said once in the log. {@code
   * JDVM_IDENTITY_LOOKUP=tables} in the environment reads the tables instead (to measure one
   * against the other).
   *
   * <p>Decided on first use under a lock, not in a class initializer: the first connections reach
   * it on virtual threads, and a virtual thread blocked in a class initializer, or waiting for one,
   * holds its carrier. On a 2-core host two such threads held both carriers while the probe's
   * connect waited for the poller, which needs one: every later connect hung (a clean-clone run's
   * MPICH ranks waited forever on their PMI socket). The probe's own sockets are a platform
   * thread's, which needs no carrier.
   */
  private static final class Kernel {
    private static final Object LOCK = new Object();
    private static volatile boolean decided;
    private static volatile String why;

    /** Why {@code sock_diag} is not used here, or {@code null} when it is. */
    static String refusal() {
      if (!decided) {
        synchronized (LOCK) { // a monitor: a virtual thread waiting here does not hold its carrier
          if (!decided) {
            why = probe();
            decided = true;
          }
        }
      }
      return why;
    }

    private static String probe() {
      String refusal;
      if ("tables".equals(System.getenv("JDVM_IDENTITY_LOOKUP"))) {
        refusal = "JDVM_IDENTITY_LOOKUP=tables";
      } else {
        refusal = SockDiag.unavailable().orElseGet(Kernel::tryOneOnAPlatformThread);
      }
      if (refusal == null || refusal.isEmpty()) {
        LOG.log(
            System.Logger.Level.INFO,
            "identity: loopback peers are named by sock_diag netlink, one look-up per connection");
        return null;
      }
      LOG.log(
          System.Logger.Level.WARNING,
          "identity: loopback peers are named by reading /proc/net/tcp, whose cost grows with the"
              + " host's sockets (sock_diag: "
              + refusal
              + ")");
      return refusal;
    }

    /** {@link #tryOne} on a platform thread, whose blocking sockets need no carrier. */
    private static String tryOneOnAPlatformThread() {
      String[] answer = {"the probe was interrupted"};
      Thread t =
          Thread.ofPlatform()
              .daemon()
              .name("jdvm-sock-diag-probe")
              .start(
                  () -> {
                    answer[0] = tryOne();
                  });
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return answer[0];
    }

    /** Empty when the kernel names this process's own loopback connection, else why not. */
    private static String tryOne() {
      InetAddress lo = InetAddress.getLoopbackAddress();
      try (ServerSocketChannel server = ServerSocketChannel.open()) {
        server.bind(new InetSocketAddress(lo, 0), 1);
        try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept()) {
          Optional<SockDiag.Socket> s =
              SockDiag.tcp(
                  (InetSocketAddress) client.getLocalAddress(),
                  (InetSocketAddress) client.getRemoteAddress());
          return s.isPresent() && s.get().uid() == ownUid()
              ? ""
              : "it does not name this process's own loopback connection";
        }
      } catch (IOException | Posix.PosixException | RuntimeException e) {
        return String.valueOf(e.getMessage());
      }
    }
  }

  private static Optional<SocketOwner> search(
      Path table, InetSocketAddress peer, InetSocketAddress local) {
    List<String> lines;
    try {
      lines = Files.readAllLines(table);
    } catch (IOException e) {
      return Optional.empty();
    }
    boolean v6 = table.getFileName().toString().endsWith("6");
    String localHex = v6 ? hexEndpoint6(peer) : hexEndpoint(peer);
    String remoteHex = v6 ? hexEndpoint6(local) : hexEndpoint(local);
    for (int i = 1; i < lines.size(); i++) {
      String[] f = lines.get(i).trim().split("\\s+");
      // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
      if (f.length > 9 && f[1].equalsIgnoreCase(localHex) && f[2].equalsIgnoreCase(remoteHex)) {
        return Optional.of(new SocketOwner(Integer.parseInt(f[7]), Long.parseLong(f[9])));
      }
    }
    return Optional.empty();
  }

  /**
   * The uids owning the peer ends of loopback connections, for an accept loop that must keep up
   * with a flood of them (or the listen backlog overflows and the DVM's own user waits too). Where
   * the kernel answers {@code sock_diag}, each is one look-up ({@link #ownerOf}); else they are
   * read from the kernel's tables once and read again only when a connection is not in the last
   * reading, so one reading serves every connection that had arrived by then. Used by one thread.
   */
  public static final class Snapshot {
    /** A reading older than this is not trusted: a closed connection's ports may be reused. */
    private static final long MAX_AGE_NS = 1_000_000_000L;

    private java.util.Map<String, Integer> uids = java.util.Map.of();
    private long readAt;

    /** The uid owning the peer's end of the connection, if the kernel's tables show it. */
    public Optional<Integer> uidOf(InetSocketAddress peer, InetSocketAddress local) {
      if (Kernel.refusal() == null) {
        return ownerOf(peer, local).map(SocketOwner::uid);
      }
      String key = key(peer, local);
      Integer uid = System.nanoTime() - readAt > MAX_AGE_NS ? null : uids.get(key);
      if (uid == null) {
        uids = read();
        readAt = System.nanoTime();
        uid = uids.get(key);
      }
      return Optional.ofNullable(uid);
    }

    private static String key(InetSocketAddress peer, InetSocketAddress local) {
      String v4 = hexEndpoint(peer);
      return v4.isEmpty()
          ? hexEndpoint6(peer) + " " + hexEndpoint6(local)
          : v4 + " " + hexEndpoint(local);
    }

    private static java.util.Map<String, Integer> read() {
      java.util.Map<String, Integer> m = new java.util.HashMap<>();
      for (String table : List.of("net/tcp", "net/tcp6")) {
        List<String> lines;
        try {
          lines = Files.readAllLines(PROC.resolve(table));
        } catch (IOException e) {
          continue;
        }
        for (int i = 1; i < lines.size(); i++) {
          String[] f = lines.get(i).trim().split("\\s+");
          if (f.length > 9) {
            m.putIfAbsent(
                f[1].toUpperCase(Locale.ROOT) + " " + f[2].toUpperCase(Locale.ROOT),
                Integer.parseInt(f[7]));
          }
        }
      }
      return m;
    }
  }

  /** {@code 0100007F:1F90}: the IPv4 address as a little-endian word, the port big-endian. */
  static String hexEndpoint(InetSocketAddress a) {
    byte[] b = ipv4(a.getAddress());
    if (b == null) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "%02X%02X%02X%02X:%04X",
        b[3] & 0xff,
        b[2] & 0xff,
        b[1] & 0xff,
        b[0] & 0xff,
        a.getPort());
  }

  /** The IPv6 table writes each 32-bit word little-endian; IPv4 appears as ::ffff:a.b.c.d. */
  static String hexEndpoint6(InetSocketAddress a) {
    byte[] b = a.getAddress().getAddress();
    if (b.length == 4) {
      b =
          new byte[] {
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, b[0], b[1], b[2], b[3]
          };
    }
    StringBuilder sb = new StringBuilder();
    for (int w = 0; w < 4; w++) {
      for (int i = 3; i >= 0; i--) {
        sb.append(String.format(Locale.ROOT, "%02X", b[w * 4 + i] & 0xff));
      }
    }
    return sb.append(String.format(Locale.ROOT, ":%04X", a.getPort())).toString();
  }

  private static byte[] ipv4(InetAddress addr) {
    if (addr instanceof Inet4Address) {
      return addr.getAddress();
    }
    byte[] b = addr.getAddress();
    boolean mapped = b.length == 16 && b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    for (int i = 0; mapped && i < 10; i++) {
      mapped = b[i] == 0;
    }
    return mapped ? new byte[] {b[12], b[13], b[14], b[15]} : null;
  }

  /** Whether the process holds the socket with this inode among its open files. */
  public static boolean holdsSocket(long pid, long inode) {
    String target = "socket:[" + inode + "]";
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve(pid + "/fd"))) {
      for (Path fd : fds) {
        try {
          if (Files.readSymbolicLink(fd).toString().equals(target)) {
            return true;
          }
        } catch (IOException e) {
          // The descriptor closed while we looked; keep going.
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  /**
   * Whether the process or one of its descendants holds the socket: a helper process started by a
   * job's process acts for that job. The descendants are found from the process down ({@code
   * /proc/PID/task/TID/children}), not by reading every process of the host.
   */
  public static boolean heldByProcessTree(long pid, long inode) {
    if (holdsSocket(pid, inode)) {
      return true;
    }
    java.util.ArrayDeque<Long> next = new java.util.ArrayDeque<>(childrenOf(pid));
    java.util.Set<Long> seen = new java.util.HashSet<>();
    while (!next.isEmpty()) {
      long p = next.poll();
      if (seen.add(p)) {
        if (holdsSocket(p, inode)) {
          return true;
        }
        next.addAll(childrenOf(p));
      }
    }
    return false;
  }

  /**
   * The children of a process, from each of its threads' {@code children} file; where the kernel
   * has none ({@code CONFIG_PROC_CHILDREN} off), from the JDK's process table.
   */
  static List<Long> childrenOf(long pid) {
    List<Long> out = new java.util.ArrayList<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(pid + "/task"))) {
      for (Path task : tasks) {
        String kids;
        try {
          kids = Files.readString(task.resolve("children"));
        } catch (java.nio.file.NoSuchFileException e) {
          if (Files.exists(task)) {
            return ProcessHandle.of(pid)
                .map(h -> h.children().map(ProcessHandle::pid).toList())
                .orElse(List.of());
          }
          continue; // the thread ended while we looked
        }
        for (String k : kids.trim().split("\\s+")) {
          if (!k.isEmpty()) {
            out.add(Long.parseLong(k));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return out; // the process ended while we looked
    }
    return out;
  }

  /** The uid this JVM runs as. */
  public static int ownUid() {
    try {
      return (Integer) Files.getAttribute(PROC.resolve("self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalStateException("cannot read this process's uid from /proc", e);
    }
  }
}
