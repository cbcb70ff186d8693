package org.jdvm.server.home;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jdvm.host.JobDirectories;
import org.jdvm.host.identity.Credentials;
import org.jdvm.host.identity.LoopbackPeers;
import org.jdvm.pmix.json.Json;

/**
 * A DVM's directory (default {@code ~/.jdvm}, docs/protocol.md): the lock that makes it one DVM's,
 * the private secret and scheduler credential, the contact file clients find the DVM by, the Unix
 * socket, the log, and the scratch directory exported to processes as the PMIx tmpdir (in memory
 * under {@code /dev/shm} when it can be).
 *
 * <p>Secrets are created readable by the DVM's user only; the contact file is written atomically
 * once the endpoint listens and removed when the DVM stops, so a client never reads half a file or
 * a stale address of a live DVM.
 */
public final class DvmHome implements AutoCloseable {
  public static final String CONTACT = "dvm.json";
  public static final String SECRET = "secret";
  public static final String SCHEDULER_CREDENTIAL = "scheduler.cred";
  public static final String SOCKET = "dvm.sock";
  public static final String LOG = "dvm.log";

  /** The file a running (or starting) DVM holds an exclusive lock on, for its whole life. */
  public static final String LOCK = "dvm.lock";

  public static final String VERSION = "0.1.0";

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIR =
      PosixFilePermissions.fromString("rwx------");

  private final Path dir;
  private final Path tmp;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Credentials credentials;

  private DvmHome(
      Path dir, Path tmp, FileChannel lockChannel, FileLock lock, Credentials credentials) {
    this.dir = dir;
    this.tmp = tmp;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.credentials = credentials;
  }

  /**
   * Takes the directory for a new DVM: creates it, locks it, and writes fresh secrets.
   *
   * @throws IOException if the directory cannot be used
   * @throws IllegalStateException if another DVM holds it; the message says which pid
   */
  public static DvmHome claim(Path dir) throws IOException {
    return claim(dir, false);
  }

  /**
   * As {@link #claim(Path)}; with {@code keepSecret}, a secret the directory already holds (that of
   * a DVM whose controller died, recovered from its journal) is kept, so the agents and tools that
   * outlived it can prove themselves to the new controller (docs/journal.md).
   */
  public static DvmHome claim(Path dir, boolean keepSecret) throws IOException {
    prepare(dir);
    FileChannel ch =
        FileChannel.open(
            dir.resolve(LOCK),
            java.util.Set.of(
                StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
            PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    Files.setPosixFilePermissions(dir.resolve(LOCK), OWNER_ONLY); // one an older DVM left
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      ch.close();
      throw new IllegalStateException(
          "a DVM is already running in " + dir + runningPid(dir) + "; stop it with 'jdvm stop'");
    }
    Files.deleteIfExists(dir.resolve(CONTACT));
    Files.deleteIfExists(dir.resolve(SOCKET));
    Credentials credentials = keepSecret ? existing(dir.resolve(SECRET)) : null;
    if (credentials == null) {
      credentials = Credentials.generate();
    }
    writePrivate(dir.resolve(SECRET), credentials.secretHex() + "\n");
    writePrivate(dir.resolve(SCHEDULER_CREDENTIAL), credentials.schedulerCredential() + "\n");
    Path tmp = scratch(dir);
    privateDirectory(tmp);
    return new DvmHome(dir, tmp, ch, lock, credentials);
  }

  /**
   * Whether some process holds the lock of the DVM directory {@code dir}: a DVM runs or is starting
   * there. Read from {@code /proc/locks}, never by taking the lock: taking it, even for a moment,
   * could make a DVM starting at that moment fail with "already running". No lock file means no.
   *
   * @throws IOException when this cannot be told (no {@code /proc/locks}, say)
   */
  public static boolean locked(Path dir) throws IOException {
    Path lock = dir.resolve(LOCK);
    if (!Files.exists(lock, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    long inode =
        ((Number) Files.getAttribute(lock, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
    String suffix = ":" + inode; // the MAJ:MIN:INODE field of a lock's line
    for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
      for (String field : line.trim().split("\\s+")) {
        if (field.endsWith(suffix) && field.chars().filter(ch -> ch == ':').count() == 2) {
          return true;
        }
      }
    }
    return false;
  }

  /** The secret in {@code file}, or {@code null} if there is none that reads. */
  private static Credentials existing(Path file) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > 1024) {
        return null;
      }
      return Credentials.fromSecretHex(Files.readString(file));
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Makes {@code dir} fit to be a DVM's directory, or says why it is not: created readable by its
   * user only ({@code 0700}) when missing; refused when it is a symbolic link, not a directory, not
   * owned by this process's user, or writable by its group or others (then another user could plant
   * links to make the DVM overwrite files). An existing directory that passes is narrowed to {@code
   * 0700}, since the log and the contact file are below it. Files in it are then opened without
   * following symbolic links.
   *
   * @throws IOException with a one-line reason when the directory cannot be used
   */
  public static void prepare(Path dir) throws IOException {
    if (dir.toString().isEmpty()) {
      throw new IOException("the DVM directory must not be empty");
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    privateDirectory(dir);
  }

  /**
   * Creates {@code dir} as {@code 0700}, or checks an existing one is this user's own and private.
   */
  private static void privateDirectory(Path dir) throws IOException {
    try {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
      return;
    } catch (FileAlreadyExistsException e) {
      // Check what is there.
    }
    if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException(dir + " is not a directory (a symbolic link or a file is not used)");
    }
    int uid = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    if (uid != LoopbackPeers.ownUid()) {
      throw new IOException(dir + " belongs to uid " + uid + ", not to this user");
    }
    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    if (perms.contains(PosixFilePermission.GROUP_WRITE)
        || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw new IOException(
          dir + " is writable by other users (" + PosixFilePermissions.toString(perms) + ")");
    }
    if (!perms.equals(OWNER_DIR)) {
      Files.setPosixFilePermissions(dir, OWNER_DIR);
    }
  }

  /**
   * The scratch directory: in memory ({@code /dev/shm/jdvm-<user>-<pid>-<hash of dir>}, so two DVMs
   * of one JVM, as in tests, have two) when {@code /dev/shm} is a writable directory, since jobs'
   * directories are below it and Open MPI keeps its shared-memory segments there (see {@code
   * shell.JobDirectories}); else {@code <dir>/tmp}.
   */
  private static Path scratch(Path dir) {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return shm.resolve(
          "jdvm-"
              + System.getProperty("user.name", "user")
              + "-"
              + ProcessHandle.current().pid()
              + "-"
              + Integer.toHexString(dir.toAbsolutePath().hashCode()));
    }
    return dir.resolve("tmp");
  }

  private static String runningPid(Path dir) {
    try {
      Object contact = Json.parse(Files.readString(dir.resolve(CONTACT)));
      if (contact instanceof Map<?, ?> m && m.get("pid") != null) {
        return " (pid " + m.get("pid") + ")";
      }
    } catch (IOException | RuntimeException e) {
      // No readable contact file: say less.
    }
    return "";
  }

  /**
   * Writes a new file readable by this user only; a link in its place is replaced, not followed.
   */
  private static void writePrivate(Path file, String content) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    Files.writeString(file, content, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
  }

  public Path dir() {
    return dir;
  }

  public Credentials credentials() {
    return credentials;
  }

  public Path socket() {
    return dir.resolve(SOCKET);
  }

  public Path log() {
    return dir.resolve(LOG);
  }

  /**
   * The scratch directory exported to launched processes as the PMIx tmpdirs, below which jobs'
   * directories are made; removed when the DVM stops.
   */
  public Path tmp() {
    return tmp;
  }

  /**
   * Publishes how to reach the DVM: written to a temporary file, then moved into place.
   *
   * @param uri the PMIx server URI
   * @param tcp {@code host:port} of the loopback listener
   * @param tools the directory of its PMIx tool rendezvous files ({@link ToolRendezvous}), or null
   */
  public void publish(String name, String uri, String tcp, Path tools) throws IOException {
    Map<String, Object> contact = new LinkedHashMap<>();
    contact.put("name", name);
    contact.put("pid", ProcessHandle.current().pid());
    contact.put("uri", uri);
    contact.put("tcp", tcp);
    contact.put("unix", socket().toString());
    contact.put("version", VERSION);
    if (tools != null) {
      contact.put("tools", tools.toString());
    }
    Path tmp = dir.resolve(CONTACT + ".tmp");
    // Created anew, never through a link someone left in its place; moved over the old one.
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    Files.writeString(
        tmp, Json.write(contact) + "\n", StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    try {
      Files.move(tmp, dir.resolve(CONTACT), StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, dir.resolve(CONTACT), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * Withdraws the contact file and socket, removes the scratch directory, then releases the
   * directory.
   */
  @Override
  public void close() {
    JobDirectories.removeTree(tmp);
    try {
      Files.deleteIfExists(dir.resolve(CONTACT));
      Files.deleteIfExists(socket());
      lock.release();
      lockChannel.close();
    } catch (IOException e) {
      // Stopping anyway; a stale file is recognised by its dead pid and the free lock.
    }
  }
}
