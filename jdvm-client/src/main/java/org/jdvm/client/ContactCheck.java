package org.jdvm.client;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdvm.pmix.PmixStatus;

/**
 * Whether a contact file still names a running DVM (docs/protocol.md "Who the DVM is"), checked
 * before a byte is sent: its pid must be alive, and, when the client dials loopback TCP, the socket
 * listening on its port must belong to that process — owned by the process's user, and among its
 * open files when this user may look. A contact left behind by a DVM that was killed, whose port
 * another user has since bound, is reported as {@code the DVM (pid N) is not running}, never
 * connected to. The Unix socket needs no such check: it lies in the DVM's directory, which only the
 * DVM's user may enter.
 */
final class ContactCheck {
  private static final Path PROC = Path.of("/proc");

  private ContactCheck() {}

  /**
   * @param unix the client will dial the Unix socket: the pid is checked, not the TCP port
   */
  static void verify(Contact c, boolean unix) throws PmixException {
    if (c.pid() == null || !Files.isDirectory(PROC.resolve("self"))) {
      return; // a bare URI, or no /proc to ask
    }
    long pid = c.pid();
    Path proc = PROC.resolve(Long.toString(pid));
    if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
      throw notRunning(c, "");
    }
    if (unix || c.tcp().getAddress() == null || !c.tcp().getAddress().isLoopbackAddress()) {
      return; // the Unix socket is used, in a directory only the DVM's user can enter
    }
    Optional<long[]> listener = listener(c.tcp()); // {uid, inode}
    if (listener.isEmpty()) {
      throw notRunning(c, ": nothing listens on " + hostPort(c.tcp()));
    }
    long uid;
    try {
      uid = ((Number) Files.getAttribute(proc, "unix:uid")).longValue();
    } catch (IOException | RuntimeException e) {
      throw notRunning(c, "");
    }
    if (listener.get()[0] != uid) {
      throw notRunning(
          c,
          ": "
              + hostPort(c.tcp())
              + " is held by uid "
              + listener.get()[0]
              + ", not by the DVM's user (uid "
              + uid
              + ")");
    }
    Boolean holds = holds(proc, listener.get()[1]);
    if (Boolean.FALSE.equals(holds)) {
      throw notRunning(c, ": pid " + pid + " does not hold " + hostPort(c.tcp()));
    }
  }

  private static PmixException notRunning(Contact c, String why) {
    return new PmixException(
        PmixStatus.ERR_UNREACH,
        "the DVM (pid "
            + c.pid()
            + ") is not running"
            + why
            + (c.dir() == null
                ? ""
                : "; "
                    + c.dir().resolve(Contact.CONTACT_FILE)
                    + " is stale ('jdvm start' removes it)"));
  }

  private static String hostPort(InetSocketAddress a) {
    return a.getHostString() + ":" + a.getPort();
  }

  /** The uid and inode of the socket listening on this address, from the kernel's tables. */
  private static Optional<long[]> listener(InetSocketAddress a) {
    boolean v4 = a.getAddress() instanceof Inet4Address;
    for (String table : v4 ? List.of("net/tcp") : List.of("net/tcp6")) {
      List<String> lines;
      try {
        lines = Files.readAllLines(PROC.resolve(table));
      } catch (IOException e) {
        continue;
      }
      String port = String.format(Locale.ROOT, ":%04X", a.getPort());
      for (int i = 1; i < lines.size(); i++) {
        String[] f = lines.get(i).trim().split("\\s+");
        // sl local rem st tx:rx tr:when retrnsmt uid timeout inode; st 0A is LISTEN
        if (f.length > 9 && f[3].equals("0A") && f[1].toUpperCase(Locale.ROOT).endsWith(port)) {
          return Optional.of(new long[] {Long.parseLong(f[7]), Long.parseLong(f[9])});
        }
      }
    }
    return Optional.empty();
  }

  /** Whether the process holds the socket; {@code null} when this user may not look. */
  private static Boolean holds(Path proc, long inode) {
    String target = "socket:[" + inode + "]";
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
      for (Path fd : fds) {
        try {
          if (Files.readSymbolicLink(fd).toString().equals(target)) {
            return true;
          }
        } catch (IOException e) {
          // closed while we looked
        }
      }
      return false;
    } catch (AccessDeniedException e) {
      return null;
    } catch (IOException e) {
      return null;
    }
  }
}
