package org.jdvm.server.home;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.host.JobDirectories;
import org.jdvm.host.identity.LoopbackPeers;

/**
 * The rendezvous files a libpmix tool searches for (docs/protocol.md "Tool rendezvous"), so that
 * {@code pps}, {@code pattrs}, {@code pevent} and Python's {@code pmix.PMIxTool} find the DVM with
 * no flags. libpmix 4.2.2's tool side ({@code ptl_base_connect.c}) reads, under its system tmpdir
 * ({@code PMIX_SYSTEM_TMPDIR}, else {@code TMPDIR}, else {@code /tmp}), searched depth-first:
 * {@code pmix.HOST.tool.PID} when given a server pid, {@code pmix.HOST.tool.NSPACE} when given a
 * namespace, any file whose name starts {@code pmix.HOST.tool} otherwise (refused when they name
 * different servers); and {@code pmix.sys.HOST} directly in that directory for a system server.
 * Each file is two lines, the server's URI and {@code v} and the version, as libpmix's server
 * writes them ({@code ptl_base_listener.c}).
 *
 * <p>Where: {@code TMP/jdvm.HOST.UID/dvm.PID.XXXX/}, both directories the DVM's user's only (0700),
 * checked without following links (a directory another user made, or a link in its place, is never
 * written into: the DVM starts without rendezvous and says why); the files 0600, written beside and
 * moved into place. Each DVM holds a lock on its directory's {@code lock} file: a directory whose
 * lock is free is a dead DVM's, removed by the next DVM of the user that starts, so a tool's scan
 * does not stay pointed at a killed DVM. The directory goes when the DVM stops.
 */
public final class ToolRendezvous implements AutoCloseable {
  /** Which rendezvous files a DVM writes ({@code jdvm start --system-server}, {@code --no-...}). */
  public enum Mode {
    /** None: tools need the URI by hand. */
    NONE,
    /** The session files, by pid, namespace and "any" (the default). */
    SESSION,
    /** The session files and {@code pmix.sys.HOST} in the tmpdir, as a system server. */
    SYSTEM
  }

  /** A system server's file, {@code pmix.sys.HOST}: a libpmix file name, not an attribute key. */
  static final String SYSTEM_FILE = "pmix.sys.";

  /** The protocol version line, as libpmix 4.2.2's server writes it. */
  static final String VERSION_LINE = "v4.2.2";

  private static final System.Logger LOG = System.getLogger("org.jdvm.server");
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIR =
      PosixFilePermissions.fromString("rwx------");

  private final Path dir;
  private final String uri;
  private final Path systemFile;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private ToolRendezvous(
      Path dir, String uri, Path systemFile, FileChannel lockChannel, FileLock lock) {
    this.dir = dir;
    this.uri = uri;
    this.systemFile = systemFile;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** The directory this DVM's session files are in ({@code PMIX_SYSTEM_TMPDIR} to point a tool). */
  public Path dir() {
    return dir;
  }

  /**
   * Writes this DVM's rendezvous files under {@code tmp}.
   *
   * @param uri the server's PMIx URI ({@code nspace.rank;tcp4://...})
   * @param nspace the server's namespace
   * @return the files written, or {@code null} (mode NONE, or a session base not safe to use: the
   *     reason is logged)
   * @throws IOException a system server's file that cannot be written (another user's, or a live
   *     server's): a DVM asked to be the system server does not start without it
   */
  public static ToolRendezvous publish(Mode mode, Path tmp, String uri, String nspace)
      throws IOException {
    if (mode == Mode.NONE) {
      return null;
    }
    String host = hostname();
    int uid = LoopbackPeers.ownUid();
    Path base = tmp.resolve("jdvm." + host + "." + uid);
    String refused = ownedDirectory(base, uid);
    if (refused != null) {
      if (mode == Mode.SYSTEM) {
        throw new IOException("cannot write PMIx tool rendezvous files: " + refused);
      }
      LOG.log(System.Logger.Level.WARNING, "no PMIx tool rendezvous files: " + refused);
      return null;
    }
    sweepStale(base);
    Path dir =
        Files.createTempDirectory(
            base,
            "dvm." + ProcessHandle.current().pid() + ".",
            PosixFilePermissions.asFileAttribute(OWNER_DIR));
    FileChannel ch =
        FileChannel.open(
            dir.resolve("lock"),
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    ToolRendezvous r = new ToolRendezvous(dir, uri, null, ch, ch.lock());
    String text = uri + "\n" + VERSION_LINE + "\n";
    try {
      String prefix = "pmix." + host + ".tool";
      for (String name :
          List.of(prefix + "." + ProcessHandle.current().pid(), prefix + "." + nspace, prefix)) {
        writeFile(dir, name, text);
      }
      if (mode == Mode.SYSTEM) {
        return r.withSystem(writeSystemFile(tmp, host, uid, text));
      }
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
    return r;
  }

  private ToolRendezvous withSystem(Path file) {
    return new ToolRendezvous(dir, uri, file, lockChannel, lock);
  }

  /**
   * libpmix's host name: {@code gethostname()} cut at its first dot unless it is an address
   * (libpmix drops the domain unless told to keep it).
   */
  static String hostname() {
    String h;
    try {
      h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      h = "localhost";
    }
    return h.matches("[0-9.]+") || h.indexOf('.') < 0 ? h : h.substring(0, h.indexOf('.'));
  }

  /** Null when {@code d} is (or is now made) a directory of {@code uid}'s only; else why not. */
  static String ownedDirectory(Path d, int uid) throws IOException {
    try {
      Files.createDirectory(d, PosixFilePermissions.asFileAttribute(OWNER_DIR));
    } catch (FileAlreadyExistsException e) {
      // checked below, whoever made it
    }
    PosixFileAttributes a =
        Files.readAttributes(d, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isDirectory()) {
      return d + " is not a directory (a link or a file is in its place)";
    }
    Object owner = Files.getAttribute(d, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    if (!(owner instanceof Integer o) || o != uid) {
      return d + " belongs to uid " + owner + ", not to this DVM's user (uid " + uid + ")";
    }
    if (!OWNER_DIR.containsAll(a.permissions())) {
      return d + " is open to others (" + PosixFilePermissions.toString(a.permissions()) + ")";
    }
    return null;
  }

  /** Removes the directories of DVMs that died without removing them (their lock is free). */
  static void sweepStale(Path base) {
    List<Path> stale = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, "dvm.*")) {
      for (Path d : ds) {
        if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) && lockIsFree(d.resolve("lock"))) {
          stale.add(d);
        }
      }
    } catch (IOException e) {
      return; // nothing swept: a tool's scan may still see a dead DVM's file
    }
    stale.forEach(JobDirectories::removeTree);
  }

  private static boolean lockIsFree(Path lockFile) {
    if (Files.isSymbolicLink(lockFile)) {
      return true;
    }
    try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      if (l == null) {
        return false;
      }
      l.release();
      return true;
    } catch (OverlappingFileLockException e) {
      return false; // held by a DVM in this very JVM
    } catch (IOException e) {
      return !Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS);
    }
  }

  /** Writes {@code name} in {@code dir}: created 0600 beside it, then moved into place. */
  private static void writeFile(Path dir, String name, String text) throws IOException {
    Path tmp = dir.resolve(".new." + name);
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    Files.writeString(tmp, text, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    try {
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * {@code TMP/pmix.sys.HOST}, in the shared directory itself: replaced only when it is this user's
   * and names no live server of theirs (a dead DVM's: its own directory's lock is free).
   */
  private static Path writeSystemFile(Path tmp, String host, int uid, String text)
      throws IOException {
    Path file = tmp.resolve(SYSTEM_FILE + host);
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      Object owner = Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (!(owner instanceof Integer o) || o != uid || Files.isSymbolicLink(file)) {
        throw new IOException(
            file + " belongs to uid " + owner + ": another user's system server is registered");
      }
      String uri = Files.readString(file).lines().findFirst().orElse("");
      if (liveUris(tmp.resolve("jdvm." + host + "." + uid), host).contains(uri)) {
        throw new IOException(file + " names a running DVM of this user (" + uri + ")");
      }
    }
    Path base = tmp.resolve("jdvm." + host + "." + uid);
    writeFile(base, SYSTEM_FILE + host, text);
    Files.move(base.resolve(SYSTEM_FILE + host), file, StandardCopyOption.REPLACE_EXISTING);
    return file;
  }

  /** The URIs of this user's running DVMs (their lock held) on this host. */
  private static Set<String> liveUris(Path base, String host) throws IOException {
    Set<String> uris = new java.util.HashSet<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, "dvm.*")) {
      for (Path d : ds) {
        Path f = d.resolve("pmix." + host + ".tool");
        if (!lockIsFree(d.resolve("lock")) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          Files.readString(f).lines().findFirst().ifPresent(uris::add);
        }
      }
    }
    return uris;
  }

  /** The environment that points a libpmix tool at this DVM alone. */
  public Map<String, String> toolEnvironment() {
    return Map.of("PMIX_SYSTEM_TMPDIR", dir.toString());
  }

  /** Removes the files (the system file too, if still ours) and the directory. */
  @Override
  public void close() {
    try {
      if (systemFile != null
          && Files.isRegularFile(systemFile, LinkOption.NOFOLLOW_LINKS)
          && Files.readString(systemFile).lines().findFirst().orElse("").equals(uri)) {
        Files.deleteIfExists(systemFile); // still ours: not yet replaced by a later server
      }
    } catch (IOException e) {
      // stopping anyway; the next system server replaces a dead one's file
    }
    try {
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      // the directory goes below either way
    }
    JobDirectories.removeTree(dir);
  }
}
