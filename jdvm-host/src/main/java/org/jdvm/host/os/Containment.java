package org.jdvm.host.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Keeps every descendant of every process the host starts, so that all of them can be ended: the
 * ones that call {@code setsid}, double-fork or daemonize too. What the field uses, where the
 * kernel lets us:
 *
 * <ul>
 *   <li><b>cgroup v2</b> (as Slurm's proctrack/cgroup and systemd scopes do): one cgroup per job
 *       and node under one cgroup of this host ({@code jdvm-<pid>-<n>} below the controller's own
 *       cgroup); a process is moved into its job's cgroup as soon as {@code posix_spawn} returns,
 *       with whatever it forked meanwhile ({@link #adopt}), and a job ends with {@code
 *       cgroup.kill}, which no descendant escapes (the kernel's cgroup v2 admin guide). An emptied
 *       cgroup is kept for a later job ({@code c-<n>}, at most {@link #SPARE_CGROUPS}) rather than
 *       removed and made again: it is kept only once empty (killed first if the job left anything
 *       in it), and nothing is moved into a cgroup after its job was retired.
 *   <li><b>subreaper and process groups</b> otherwise: each process leads its own session, and an
 *       orphaned descendant is reparented to the controller rather than to init; a job ends with a
 *       KILL to every adopted orphan that carries the job's tag, generation after generation.
 * </ul>
 *
 * <p>In both modes the controller is the child subreaper ({@code PR_SET_CHILD_SUBREAPER}, prctl(2))
 * and every process carries its group's tag ({@link #TAG_VARIABLE} in its environment): in cgroup
 * mode that is what finds a process forked before its parent was moved whose parent has died.
 * Adopted orphans that end are reaped ({@link #reapAdopted}).
 *
 * <p>What this host runs is recorded in {@code <dvm dir>/}{@link #RECORD}: the cgroup and the tag.
 * A controller killed outright cannot end its processes; the next one started on the same directory
 * reads the record first and ends what it names ({@link #open}): the cgroup with {@code
 * cgroup.kill}, and every process carrying the tag.
 */
public final class Containment implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** The file in the DVM directory that names what the host contains. */
  public static final String RECORD = "procs.contain";

  /** The environment variable that tags a job's processes: {@code jdvm-<pid>-<n>/<group>}. */
  public static final String TAG_VARIABLE = "JDVM_CONTAIN";

  private static final long KILL_WAIT_MS = 5000;
  private static int counter;
  private static int subreapers; // hosts in subreaper mode open in this process

  /** Which mechanism is active. */
  public enum Mode {
    CGROUP,
    SUBREAPER
  }

  private final Mode mode;
  private final Path cgroup;
  private final String tag;
  private final Path record;

  /** Each live group's cgroup (cgroup mode). */
  private final java.util.Map<String, Path> groups = new ConcurrentHashMap<>();

  /**
   * Emptied cgroups kept for the next groups (at most {@link #SPARE_CGROUPS}): creating and
   * removing a cgroup for every job cost more than the job's {@code posix_spawn}. Guarded by
   * itself.
   */
  private final java.util.ArrayDeque<Path> spare = new java.util.ArrayDeque<>();

  /** How many emptied cgroups are kept for reuse. */
  static final int SPARE_CGROUPS = 64;

  /** How many cgroup files ({@code cgroup.procs}, {@code cgroup.events}) are kept open. */
  static final int OPEN_CGROUP_FILES = 32;

  /**
   * The {@code cgroup.procs} and {@code cgroup.events} of the cgroups used last, open (the most
   * recently used {@link #OPEN_CGROUP_FILES}): an open, write or read, and close per launch was a
   * tenth of a launch's CPU. Guarded by itself; a read or write happens under it, so an eviction
   * never closes a file in use.
   */
  private final java.util.LinkedHashMap<Path, java.nio.channels.FileChannel> openProcs =
      new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(
            java.util.Map.Entry<Path, java.nio.channels.FileChannel> eldest) {
          if (size() > OPEN_CGROUP_FILES) {
            closeQuietly(eldest.getValue());
            return true;
          }
          return false;
        }
      };

  /**
   * {@code /proc/<this>/task/<this>/children}, open, read again from its start at each launch
   * ({@link #adopt}); guarded by itself.
   */
  private java.nio.channels.FileChannel selfChildren;

  private java.nio.ByteBuffer selfChildrenBuffer = java.nio.ByteBuffer.allocate(4096);

  private final java.util.concurrent.atomic.AtomicLong cgroupNames =
      new java.util.concurrent.atomic.AtomicLong();
  private final String leftover;
  private volatile boolean moveFailed;
  private final java.util.function.IntPredicate watched;
  private volatile boolean closed;

  private Containment(
      Mode mode,
      Path cgroup,
      String tag,
      Path record,
      String leftover,
      java.util.function.IntPredicate watched) {
    this.watched = watched;
    this.mode = mode;
    this.cgroup = cgroup;
    this.tag = tag;
    this.record = record;
    this.leftover = leftover;
  }

  /**
   * Ends what a controller killed earlier on {@code dvmDir} left running (its record), then chooses
   * the mechanism and records it.
   *
   * @param dvmDir the DVM's directory, or {@code null} to record nothing
   * @param allowCgroup whether a cgroup may be used (tests force the other mode with false)
   * @param watched the pids the host watches itself (its own live children), never taken as orphans
   */
  public static Containment open(
      Path dvmDir, boolean allowCgroup, java.util.function.IntPredicate watched) {
    Path record = dvmDir == null ? null : dvmDir.resolve(RECORD);
    String leftover = record == null ? null : endRecorded(record);
    int n;
    synchronized (Containment.class) {
      n = ++counter;
    }
    String name = "jdvm-" + ProcessHandle.current().pid() + "-" + n;
    Path cg = allowCgroup ? createCgroup(name) : null;
    // The subreaper in both modes: in cgroup mode it catches what a process forked in the moment
    // between its exec and its move into the cgroup, if the parent has died meanwhile (adopt).
    int rc;
    synchronized (Containment.class) {
      rc = subreapers++ == 0 ? Posix.becomeSubreaper(true) : 0;
    }
    if (rc != 0) {
      LOG.log(
          System.Logger.Level.WARNING, "cannot become the child subreaper: " + Posix.strerror(-rc));
    }
    Containment c =
        new Containment(
            cg != null ? Mode.CGROUP : Mode.SUBREAPER, cg, name, record, leftover, watched);
    c.writeRecord();
    return c;
  }

  public Mode mode() {
    return mode;
  }

  /** One line for {@code jdvm start} and the log. */
  public String describe() {
    // Also the second line of the record, which jdvm start prints (recordedDescription).
    String s =
        mode == Mode.CGROUP
            ? "cgroup v2 (" + cgroup + ")"
            : "child subreaper and process groups (no writable cgroup v2)";
    s = starts == null ? s : s + "; " + starts;
    return leftover == null ? s : s + "; " + leftover;
  }

  /** How the host starts processes, for {@link #describe} (and the record jdvm start prints). */
  public void describeStarts(String how) {
    starts = how;
    writeRecord();
  }

  private volatile String starts;

  /** How many emptied cgroups are kept for the next groups now (cgroup mode; tests). */
  public int keptCgroups() {
    synchronized (spare) {
      return spare.size();
    }
  }

  /** The environment variable (name, value) a job's processes carry. */
  public String[] tagFor(String group) {
    return new String[] {TAG_VARIABLE, tag + "/" + group};
  }

  /**
   * Puts a just-started process, and whatever it has forked already, into {@code group} (cgroup
   * mode only). The process is moved first, so what it forks from then on is born inside; then its
   * children, read after the move, are moved the same way, and so on down. What was forked before a
   * move by a parent that died before its children were read has been reparented to this process,
   * the subreaper: those of this host's children that carry this host's tag and are not {@code
   * watched} are moved into the group their tag names. A process that cannot be moved stays
   * contained by its session and its tag.
   */
  public void adopt(int pid, String group) {
    if (mode != Mode.CGROUP) {
      return;
    }
    Path dir;
    try {
      dir = cgroupOf(group);
    } catch (IOException e) {
      warnMoveFailed(pid, cgroup, e);
      return;
    }
    moveInto(pid, dir);
    for (int orphan : orphansOfThisProcess()) {
      if (orphan == pid || watched.test(orphan)) {
        continue;
      }
      String g = groupOf(orphan);
      if (g != null) {
        // Under the lock end takes to retire a group's cgroup: an orphan is moved into a cgroup
        // that end will still see it in, or, its group ended, killed; never into a kept one.
        synchronized (groups) {
          Path its = groups.get(g);
          if (its != null) {
            moveInto(orphan, its);
          } else {
            Posix.kill(orphan, 9); // its job is over
          }
        }
      }
    }
  }

  /**
   * The cgroup a process of {@code group} can be born in ({@link NativeSpawn}), made or taken from
   * the kept ones as {@link #adopt} would; {@code null} outside cgroup mode or if none can be made.
   * A process born there needs no {@link #adopt}: nothing it forks can be outside.
   */
  public Path birthplace(String group) {
    if (mode != Mode.CGROUP) {
      return null;
    }
    try {
      return cgroupOf(group);
    } catch (IOException e) {
      return null;
    }
  }

  /** The cgroup of a live group: the one it has, or one made or kept for it now. */
  private Path cgroupOf(String group) throws IOException {
    try {
      return groups.computeIfAbsent(group, g -> cgroupForNewGroup());
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** The group a process of this host's is tagged with, from its environment, or {@code null}. */
  private String groupOf(int pid) {
    byte[] env;
    try {
      env = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
    } catch (IOException e) {
      return null;
    }
    String prefix = TAG_VARIABLE + "=" + tag + "/";
    for (String kv : new String(env, StandardCharsets.UTF_8).split("\u0000")) {
      if (kv.startsWith(prefix)) {
        return kv.substring(prefix.length());
      }
    }
    return null;
  }

  /**
   * A cgroup for a group starting: an emptied one kept from an ended group, or a new one. A kept
   * one is empty: {@link #end} kept it only once it was, and nothing is moved into a cgroup after
   * its group was retired ({@link #adopt}).
   */
  private Path cgroupForNewGroup() {
    synchronized (spare) {
      // The most recently emptied first: its cgroup.procs is likely still open.
      Path kept = spare.pollLast();
      if (kept != null) {
        return kept;
      }
    }
    Path dir = cgroup.resolve("c-" + cgroupNames.incrementAndGet());
    try {
      Files.createDirectory(dir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return dir;
  }

  private void moveInto(int pid, Path dir) {
    try {
      List<Integer> todo = new ArrayList<>(List.of(pid));
      Set<Integer> seen = new HashSet<>();
      // The process is moved first, so what it forks from now on is born inside; then what it
      // forked before the move (between its exec and here) is found and moved after it.
      while (!todo.isEmpty()) {
        int p = todo.remove(todo.size() - 1);
        if (!seen.add(p)) {
          continue;
        }
        try {
          writeProcs(dir, p);
        } catch (IOException e) {
          if (p == pid && Files.exists(Path.of("/proc", Integer.toString(p)))) {
            throw e;
          }
          continue; // gone already
        }
        todo.addAll(mainThreadChildrenOf(p));
      }
    } catch (IOException e) {
      warnMoveFailed(pid, dir, e);
    }
  }

  private void warnMoveFailed(int pid, Path dir, IOException e) {
    if (!moveFailed) {
      moveFailed = true;
      LOG.log(
          System.Logger.Level.WARNING,
          "cannot move pid " + pid + " into " + dir + " (" + e + "); it stays in its session");
    }
  }

  /** Writes {@code pid} to the cgroup's {@code cgroup.procs}, through the kept open file. */
  private void writeProcs(Path dir, int pid) throws IOException {
    java.nio.ByteBuffer value =
        java.nio.ByteBuffer.wrap(Integer.toString(pid).getBytes(StandardCharsets.ISO_8859_1));
    withKeptOpen(
        dir.resolve("cgroup.procs"),
        java.nio.file.StandardOpenOption.WRITE,
        ch -> ch.write(value, 0));
  }

  /**
   * Whether anything still runs in {@code dir} ({@code populated} in its {@code cgroup.events}),
   * read again from its start through the kept open file; false if the cgroup is gone.
   */
  private boolean populatedNow(Path dir) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(128);
    try {
      withKeptOpen(
          dir.resolve("cgroup.events"), java.nio.file.StandardOpenOption.READ, ch -> ch.read(b, 0));
    } catch (IOException e) {
      return false;
    }
    return populated(new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1));
  }

  private interface KernelFileIo {
    int apply(java.nio.channels.FileChannel ch) throws IOException;
  }

  private void withKeptOpen(Path file, java.nio.file.OpenOption mode, KernelFileIo io)
      throws IOException {
    synchronized (openProcs) {
      java.nio.channels.FileChannel ch = openProcs.get(file);
      if (ch == null) {
        ch = java.nio.channels.FileChannel.open(file, mode);
        openProcs.put(file, ch);
      }
      try {
        io.apply(ch);
      } catch (IOException e) {
        // Whatever failed (the process gone, the cgroup removed), the next use opens afresh.
        openProcs.remove(file);
        closeQuietly(ch);
        throw e;
      }
    }
  }

  /** Closes the kept files of a cgroup about to be removed. */
  private void forgetProcsFile(Path dir) {
    synchronized (openProcs) {
      closeQuietly(openProcs.remove(dir.resolve("cgroup.procs")));
      closeQuietly(openProcs.remove(dir.resolve("cgroup.events")));
    }
  }

  /** Closes every kept cgroup file: the cgroups are all about to go. */
  private void forgetProcsFiles() {
    synchronized (openProcs) {
      openProcs.values().forEach(Containment::closeQuietly);
      openProcs.clear();
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (IOException e) {
      // Nothing more to learn.
    }
  }

  /**
   * The children this process's main thread has — the orphans reparented to it, the subreaper
   * (launches fork from other threads) — read through the kept open {@code children} file.
   */
  private List<Integer> orphansOfThisProcess() {
    int self = (int) ProcessHandle.current().pid();
    synchronized (openProcs) {
      try {
        if (selfChildren == null) {
          selfChildren =
              java.nio.channels.FileChannel.open(
                  Path.of("/proc/" + self + "/task/" + self + "/children"));
        }
        java.nio.ByteBuffer b = selfChildrenBuffer;
        b.clear();
        while (true) {
          int n = selfChildren.read(b, b.position());
          if (n <= 0) {
            break;
          }
          if (!b.hasRemaining()) {
            b = java.nio.ByteBuffer.allocate(b.capacity() * 2).put(b.flip());
            selfChildrenBuffer = b;
          }
        }
        List<Integer> out = new ArrayList<>();
        parsePids(new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1), out);
        return out;
      } catch (IOException e) {
        closeQuietly(selfChildren);
        selfChildren = null;
        return mainThreadChildrenOf(self);
      }
    }
  }

  /**
   * The children the main thread of {@code pid} forked: a process that has just exec'd has no other
   * thread yet, and this is one read where the full list costs a directory walk.
   */
  static List<Integer> mainThreadChildrenOf(int pid) {
    List<Integer> out = new ArrayList<>();
    try {
      parsePids(readSmall(Path.of("/proc/" + pid + "/task/" + pid + "/children")), out);
    } catch (IOException e) {
      // Gone meanwhile.
    }
    return out;
  }

  /** Appends the numbers of a space-separated list (a {@code children} file) to {@code out}. */
  private static void parsePids(String list, List<Integer> out) {
    int n = -1;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c >= '0' && c <= '9') {
        n = (n < 0 ? 0 : n * 10) + (c - '0');
      } else if (n >= 0) {
        out.add(n);
        n = -1;
      }
    }
    if (n >= 0) {
      out.add(n);
    }
  }

  /** The children of every thread of {@code pid}, from {@code /proc/<pid>/task/<tid>/children}. */
  static List<Integer> childrenOf(int pid) {
    List<Integer> out = new ArrayList<>();
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
      for (Path t : tasks) {
        try {
          parsePids(Files.readString(t.resolve("children")), out);
        } catch (IOException | NumberFormatException e) {
          // The task ended meanwhile.
        }
      }
    } catch (IOException e) {
      // The process ended meanwhile.
    }
    return out;
  }

  /**
   * Ends every process of {@code group} and every descendant (cgroup mode: {@code cgroup.kill};
   * then, in both modes, the orphans this process adopted that carry the group's tag: once the
   * group's own processes have ended, whatever is left of it has been reparented to this process,
   * the subreaper, and each kill reparents the next generation). Returns once they are gone or
   * after a bound.
   */
  public void end(String group) {
    if (mode == Mode.CGROUP) {
      // Escapees were moved in by adopt; scanning this process's children here would cost
      // O(live processes) per job.
      Path dir;
      synchronized (groups) {
        dir = groups.remove(group);
      }
      if (dir != null) {
        boolean clean = !populatedNow(dir);
        if (!clean) {
          killCgroup(dir);
        }
        retire(dir, clean);
      }
      return;
    }
    killTagged(tag + "/" + group + "\u0000", watched);
  }

  /**
   * Ends {@code group} at once if nothing of it runs any more (cgroup mode: one read of its {@code
   * cgroup.events}, no kill, no wait), the usual case, so that it costs no hand-off to another
   * thread; false if {@link #end} is needed.
   */
  public boolean endIfNothingRuns(String group) {
    if (mode != Mode.CGROUP) {
      return false;
    }
    Path dir;
    synchronized (groups) {
      dir = groups.get(group);
      if (dir != null && populatedNow(dir)) {
        return false;
      }
      groups.remove(group);
    }
    if (dir != null) {
      retire(dir, true);
    }
    return true;
  }

  /**
   * A cgroup whose group ended and which is empty now: kept for a later group if nothing in it
   * needed a kill ({@code clean}) and fewer than {@link #SPARE_CGROUPS} are kept, else removed. One
   * that needed a kill is never kept: Linux 6.14 and later (kill_seq) kill a process born by
   * CLONE_INTO_CGROUP into a cgroup killed before, as if the kill were still under way (the clone
   * reads the parent's count, the fork's end the cgroup's).
   */
  private void retire(Path dir, boolean clean) {
    if (clean) {
      synchronized (spare) {
        if (spare.size() < SPARE_CGROUPS && !closed) {
          spare.addLast(dir);
          return;
        }
      }
    }
    forgetProcsFile(dir);
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // Not empty (a process in uninterruptible sleep): left for endAll.
    }
  }

  private final Set<Integer> zombiesSeen = new HashSet<>();

  /**
   * Reaps the adopted orphans that have ended: a child of this process that {@code watched} does
   * not name and that was a zombie at the previous call already (so a child the JDK's own process
   * reaper waits for is never taken from it). Call it now and then, from one thread.
   */
  public void reapAdopted() {
    Set<Integer> now = new HashSet<>();
    for (int pid : childrenOf((int) ProcessHandle.current().pid())) {
      if (!watched.test(pid) && zombie(pid)) {
        if (zombiesSeen.contains(pid)) {
          Posix.reapPid(pid);
        } else {
          now.add(pid);
        }
      }
    }
    zombiesSeen.clear();
    zombiesSeen.addAll(now);
  }

  /** Whether {@code pid} has ended and waits to be reaped (state Z in {@code /proc/<pid>/stat}). */
  public static boolean zombie(int pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Ends everything the host contains. */
  public void endAll() {
    if (mode == Mode.CGROUP) {
      groups.clear();
      synchronized (spare) {
        spare.clear();
      }
      forgetProcsFiles();
      killCgroup(cgroup);
      removeEmptyBelow(cgroup);
      killTagged(tag + "/", pid -> false); // any that could not be moved
    } else {
      killTagged(tag + "/", null);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    endAll();
    synchronized (openProcs) {
      closeQuietly(selfChildren);
      selfChildren = null;
    }
    if (mode == Mode.SUBREAPER) {
      synchronized (Containment.class) {
        if (--subreapers == 0) {
          Posix.becomeSubreaper(false);
        }
      }
    }
    if (mode == Mode.CGROUP) {
      removeEmptyBelow(cgroup);
      try {
        Files.deleteIfExists(cgroup);
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot remove " + cgroup + ": " + e);
      }
    }
    if (record != null) {
      try {
        Files.deleteIfExists(record);
      } catch (IOException e) {
        // The directory is going away.
      }
    }
  }

  /** The description a host on {@code dvmDir} recorded, or {@code null}. */
  public static String recordedDescription(Path dvmDir) {
    try {
      for (String l : Files.readAllLines(dvmDir.resolve(RECORD))) {
        if (l.startsWith("# ")) {
          return l.substring(2);
        }
      }
    } catch (IOException e) {
      // None recorded.
    }
    return null;
  }

  private void writeRecord() {
    if (record == null) {
      return;
    }
    try {
      Files.createDirectories(record.getParent());
      Files.writeString(
          record,
          (mode == Mode.CGROUP ? "cgroup " + cgroup + "\n" : "")
              + "tag "
              + tag
              + "\n# "
              + describe()
              + "\n");
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot write " + record + ": " + e);
    }
  }

  /**
   * Ends what the record of a dead controller names; returns what was done, for the start-up line,
   * or {@code null} if there was nothing to do.
   */
  static String endRecorded(Path record) {
    List<String> lines;
    try {
      lines = Files.readAllLines(record);
    } catch (IOException e) {
      return null;
    }
    long t0 = System.nanoTime();
    int ended = 0;
    for (String line : lines) {
      ended += endRecorded(line.trim());
    }
    try {
      Files.deleteIfExists(record);
    } catch (IOException e) {
      // Rewritten below.
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    return ended == 0 ? null : "ended " + ended + " processes a killed DVM left in " + ms + " ms";
  }

  /** Ends what one line of a record names; returns how many processes it ended. */
  private static int endRecorded(String line) {
    int ended = 0;
    if (line.startsWith("cgroup ")) {
      Path cg = Path.of(line.substring(7));
      // Only a cgroup this code names, under a cgroup2 mount: never anything else.
      if (cg.getFileName() != null
          && cg.getFileName().toString().startsWith("jdvm-")
          && Files.isRegularFile(cg.resolve("cgroup.kill"))) {
        ended = countProcs(cg);
        killCgroup(cg);
        removeEmptyBelow(cg);
        try {
          Files.deleteIfExists(cg);
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "cannot remove " + cg + ": " + e);
        }
      }
    } else if (line.startsWith("tag jdvm-")) {
      // What escaped the cgroup, or everything in subreaper mode.
      ended = killTagged(line.substring(4) + "/", null);
    }
    return ended;
  }

  private static int countProcs(Path cg) {
    int[] n = {0};
    try (var walk = Files.walk(cg)) {
      walk.filter(p -> p.getFileName().toString().equals("cgroup.procs"))
          .forEach(
              p -> {
                try {
                  n[0] += (int) Files.readAllLines(p).stream().filter(s -> !s.isBlank()).count();
                } catch (IOException e) {
                  // Gone meanwhile.
                }
              });
    } catch (IOException | java.io.UncheckedIOException e) {
      // Gone meanwhile.
    }
    return n[0];
  }

  /** The cgroup v2 directory to create ours in: the controller's own cgroup, if writable. */
  private static Path createCgroup(String name) {
    try {
      Path mount = null;
      for (String l : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
        // ... mountpoint ... - fstype source options
        int dash = l.indexOf(" - ");
        if (dash > 0 && l.substring(dash + 3).startsWith("cgroup2 ")) {
          mount = Path.of(l.split(" ")[4]);
          break;
        }
      }
      String own = null;
      for (String l : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        if (l.startsWith("0::")) {
          own = l.substring(3);
        }
      }
      if (mount == null || own == null) {
        return null;
      }
      Path base = mount.resolve(own.startsWith("/") ? own.substring(1) : own);
      Path cg = base.resolve(name);
      Files.createDirectory(cg);
      if (!Files.isRegularFile(cg.resolve("cgroup.kill"))) {
        Files.deleteIfExists(cg); // before Linux 5.14: no reliable kill, use the other mode
        return null;
      }
      return cg;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Kills everything in {@code cg} and below and waits (bounded) until it is empty. */
  private static void killCgroup(Path cg) {
    try {
      writeSmall(cg.resolve("cgroup.kill"), "1");
    } catch (IOException e) {
      return; // gone
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
    while (System.nanoTime() < deadline && populated(cg)) {
      Thread.onSpinWait();
      try {
        Thread.sleep(1); // the kernel takes a moment to tear dying processes down
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
  }

  private static boolean populated(Path cg) {
    try {
      return populated(readSmall(cg.resolve("cgroup.events")));
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a {@code cgroup.events} text says {@code populated 1}. */
  private static boolean populated(String events) {
    int at = events.indexOf("populated ");
    return at >= 0 && at + 10 < events.length() && events.charAt(at + 10) != '0';
  }

  /**
   * A small kernel file (cgroupfs, /proc) read whole. Once or twice per launch: {@link
   * Files#readAllLines} and its buffered reader cost several times the read itself.
   */
  private static String readSmall(Path p) throws IOException {
    try (java.io.FileInputStream in = new java.io.FileInputStream(p.toFile())) {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  /** Writes a value to a kernel file (cgroupfs) in one write, as {@link #readSmall} reads. */
  private static void writeSmall(Path p, String value) throws IOException {
    try (java.io.FileOutputStream out = new java.io.FileOutputStream(p.toFile())) {
      out.write(value.getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  private static void removeEmptyBelow(Path cg) {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(cg, Files::isDirectory)) {
      for (Path d : ds) {
        removeEmptyBelow(d);
        try {
          Files.deleteIfExists(d);
        } catch (IOException e) {
          // Not empty yet.
        }
      }
    } catch (IOException e) {
      // Gone.
    }
  }

  /**
   * KILLs every process whose environment tags it with a value starting {@code prefix}: with {@code
   * adoptedUnless} null, any process; else only the children of this process it does not name (the
   * orphans it adopted). Repeats until none is found (bounded): a killed parent's children are
   * reparented after it dies.
   */
  private static int killTagged(String prefix, java.util.function.IntPredicate adoptedUnless) {
    boolean everywhere = adoptedUnless == null;
    byte[] needle = (TAG_VARIABLE + "=" + prefix).getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    int killed = 0;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
    while (System.nanoTime() < deadline) {
      List<Integer> candidates = new ArrayList<>();
      if (everywhere) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc"))) {
          for (Path p : ds) {
            String n = p.getFileName().toString();
            if (n.chars().allMatch(Character::isDigit) && Long.parseLong(n) != self) {
              candidates.add(Integer.parseInt(n));
            }
          }
        } catch (IOException e) {
          return killed;
        }
      } else {
        for (int c : childrenOf((int) self)) {
          if (!adoptedUnless.test(c)) {
            candidates.add(c);
          }
        }
      }
      int found = 0;
      for (int pid : candidates) {
        if (tagged(pid, needle)) {
          Posix.kill(pid, 9);
          found++;
        }
      }
      if (found == 0) {
        break;
      }
      killed += found;
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return killed;
  }

  private static boolean tagged(int pid, byte[] needle) {
    byte[] env;
    try {
      env = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
    } catch (IOException e) {
      return false;
    }
    // Zombies have an empty environment: they are reaped, not killed.
    outer:
    for (int i = 0; i + needle.length <= env.length; ) {
      for (int j = 0; j < needle.length; j++) {
        if (env[i + j] != needle[j]) {
          int nul = indexOf(env, (byte) 0, i);
          if (nul < 0) {
            break outer;
          }
          i = nul + 1;
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static int indexOf(byte[] a, byte b, int from) {
    for (int i = from; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
