package org.jdvm.server.node.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
 *       with whatever it forked meanwhile, and a job ends with {@code cgroup.kill}, which no
 *       descendant escapes (cgroup-v2.rst "cgroup.kill").
 *   <li><b>subreaper and process groups</b> otherwise: each process leads its own session, the
 *       controller is the child subreaper ({@code PR_SET_CHILD_SUBREAPER}, prctl(2)), so an
 *       orphaned descendant is reparented to it rather than to init; a job ends with a KILL to each
 *       of its process groups and to every adopted orphan that carries the job's tag ({@link
 *       #TAG_VARIABLE} in its environment).
 * </ul>
 *
 * <p>What this host runs is recorded in {@code <dvm dir>/}{@link #RECORD}: the cgroup, or the tag.
 * A controller killed outright cannot end its processes; the next one started on the same directory
 * reads the record first and ends what it names ({@link #open}).
 */
public final class Containment implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** The file in the DVM directory that names what the host contains. */
  public static final String RECORD = "procs.contain";

  /** In subreaper mode: the environment variable that tags a job's processes. */
  public static final String TAG_VARIABLE = "JDVM_CONTAIN";

  private static final long KILL_WAIT_MS = 5000;
  private static int counter;

  /** Which mechanism is active. */
  public enum Mode {
    CGROUP,
    SUBREAPER
  }

  private final Mode mode;
  private final Path cgroup;
  private final String tag;
  private final Path record;
  private final Set<String> groups = ConcurrentHashMap.newKeySet();
  private final String leftover;
  private volatile boolean moveFailed;

  private Containment(Mode mode, Path cgroup, String tag, Path record, String leftover) {
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
   */
  public static Containment open(Path dvmDir, boolean allowCgroup) {
    Path record = dvmDir == null ? null : dvmDir.resolve(RECORD);
    String leftover = record == null ? null : endRecorded(record);
    int n;
    synchronized (Containment.class) {
      n = ++counter;
    }
    String name = "jdvm-" + ProcessHandle.current().pid() + "-" + n;
    Path cg = allowCgroup ? createCgroup(name) : null;
    Containment c;
    if (cg != null) {
      c = new Containment(Mode.CGROUP, cg, null, record, leftover);
    } else {
      int rc = Posix.becomeSubreaper();
      if (rc != 0) {
        LOG.log(
            System.Logger.Level.WARNING,
            "cannot become the child subreaper: " + Posix.strerror(-rc));
      }
      c = new Containment(Mode.SUBREAPER, null, name, record, leftover);
    }
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
    return leftover == null ? s : s + "; " + leftover;
  }

  /** The environment variable (name=value) a job's processes carry, or {@code null}. */
  public String[] tagFor(String group) {
    return mode == Mode.SUBREAPER ? new String[] {TAG_VARIABLE, tag + "/" + group} : null;
  }

  /**
   * Puts a just-started process, and whatever it has forked already, into {@code group}. Only in
   * cgroup mode; a process that could not be moved stays contained by its session.
   */
  public void adopt(int pid, String group) {
    if (mode != Mode.CGROUP) {
      return;
    }
    Path dir = cgroup.resolve(dirName(group));
    try {
      if (groups.add(group)) {
        Files.createDirectories(dir);
      }
      Path procs = dir.resolve("cgroup.procs");
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
          Files.writeString(procs, Integer.toString(p));
        } catch (IOException e) {
          if (p == pid && Files.exists(Path.of("/proc", Integer.toString(p)))) {
            throw e;
          }
          continue; // gone already
        }
        todo.addAll(childrenOf(p));
      }
    } catch (IOException e) {
      if (!moveFailed) {
        moveFailed = true;
        LOG.log(
            System.Logger.Level.WARNING,
            "cannot move pid " + pid + " into " + dir + " (" + e + "); it stays in its session");
      }
    }
  }

  /** The children of every thread of {@code pid}, from {@code /proc/<pid>/task/<tid>/children}. */
  static List<Integer> childrenOf(int pid) {
    List<Integer> out = new ArrayList<>();
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
      for (Path t : tasks) {
        try {
          for (String s : Files.readString(t.resolve("children")).trim().split("\\s+")) {
            if (!s.isEmpty()) {
              out.add(Integer.parseInt(s));
            }
          }
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
   * otherwise the given process groups and the tagged orphans this process adopted). Returns once
   * they are gone or after a bound.
   *
   * @param leaders the pids of the group's processes (their process groups)
   */
  public void end(String group, List<Integer> leaders) {
    if (mode == Mode.CGROUP) {
      if (groups.remove(group)) {
        killCgroup(cgroup.resolve(dirName(group)), true);
      }
    } else {
      // A group outlives its leader while a member lives, so its number cannot be reused.
      for (int pid : leaders) {
        Posix.kill(-pid, 9);
      }
      killTagged(tag + "/" + group + "\u0000", false);
    }
  }

  /** Ends everything the host contains. */
  public void endAll() {
    if (mode == Mode.CGROUP) {
      groups.clear();
      killCgroup(cgroup, false);
      removeEmptyBelow(cgroup);
    } else {
      killTagged(tag + "/", true);
    }
  }

  @Override
  public void close() {
    endAll();
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
          (mode == Mode.CGROUP ? "cgroup " + cgroup : "tag " + tag) + "\n# " + describe() + "\n");
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot write " + record + ": " + e);
    }
  }

  /**
   * Ends what the record of a dead controller names; returns what was done, for the start-up line,
   * or {@code null} if there was nothing to do.
   */
  static String endRecorded(Path record) {
    String line;
    try {
      line = Files.readAllLines(record).stream().findFirst().orElse("").trim();
    } catch (IOException e) {
      return null;
    }
    long t0 = System.nanoTime();
    int ended = 0;
    if (line.startsWith("cgroup ")) {
      Path cg = Path.of(line.substring(7));
      // Only a cgroup this code names, under a cgroup2 mount: never anything else.
      if (cg.getFileName() != null
          && cg.getFileName().toString().startsWith("jdvm-")
          && Files.isRegularFile(cg.resolve("cgroup.kill"))) {
        ended = countProcs(cg);
        killCgroup(cg, false);
        removeEmptyBelow(cg);
        try {
          Files.deleteIfExists(cg);
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "cannot remove " + cg + ": " + e);
        }
      }
    } else if (line.startsWith("tag ")) {
      ended = killTagged(line.substring(4) + "/", true);
    }
    try {
      Files.deleteIfExists(record);
    } catch (IOException e) {
      // Rewritten below.
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    return ended == 0 ? null : "ended " + ended + " processes a killed DVM left in " + ms + " ms";
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
  private static void killCgroup(Path cg, boolean remove) {
    try {
      Files.writeString(cg.resolve("cgroup.kill"), "1");
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
    if (remove) {
      try {
        Files.deleteIfExists(cg);
      } catch (IOException e) {
        // Still populated (a process in uninterruptible sleep): left for endAll.
      }
    }
  }

  private static boolean populated(Path cg) {
    try {
      for (String l : Files.readAllLines(cg.resolve("cgroup.events"))) {
        if (l.startsWith("populated ")) {
          return !l.endsWith(" 0");
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
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
   * everywhere}, any process of this user; else only the orphans this process adopted. Repeats
   * until none is found (bounded): a killed parent's children are reparented after it dies.
   */
  private static int killTagged(String prefix, boolean everywhere) {
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
        candidates.addAll(childrenOf((int) self));
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

  /** A cgroup directory name for a group: its safe characters and a hash against collisions. */
  static String dirName(String group) {
    StringBuilder sb = new StringBuilder("g-");
    for (char ch : group.toCharArray()) {
      sb.append(Character.isLetterOrDigit(ch) && ch < 128 || ch == '-' || ch == '.' ? ch : '_');
      if (sb.length() > 100) {
        break;
      }
    }
    return sb.append('-')
        .append(Integer.toHexString(group.hashCode()))
        .toString()
        .toLowerCase(Locale.ROOT);
  }
}
