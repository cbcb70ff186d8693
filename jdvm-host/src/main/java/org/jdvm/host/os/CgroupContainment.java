package org.jdvm.host.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/**
 * Containment by cgroup v2 (as Slurm's proctrack/cgroup and systemd scopes do): one cgroup per job
 * and node under one cgroup of this host ({@code jdvm-<pid>-<n>} below the controller's own
 * cgroup). A process is born inside its job's cgroup ({@link #birthplace}, {@link NativeSpawn}), or
 * moved in as soon as {@code posix_spawn} returns, with whatever it forked meanwhile ({@link
 * #adopt}); a job ends with {@code cgroup.kill}, which no descendant escapes (the kernel's cgroup
 * v2 admin guide). An emptied cgroup is kept for a later job ({@code c-<n>}, at most {@link
 * #SPARE_CGROUPS}) rather than removed and made again: it is kept only once empty (killed first if
 * the job left anything in it), and nothing is moved into a cgroup after its job was retired. The
 * tag finds a process forked before its parent was moved whose parent has died.
 *
 * <p>A group's processes are bounded: where the host's cgroup has the pids controller, it is
 * enabled for the job cgroups and each gets {@code pids.max}, so the kernel refuses a fork past it;
 * in any case the sweep reads each live group's {@code cgroup.procs} ({@link #pastProcLimit}). A
 * cgroup whose job met its {@code pids.max} is not kept for another.
 */
final class CgroupContainment implements Containment {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** How many emptied cgroups are kept for reuse. */
  static final int SPARE_CGROUPS = 64;

  /** How many cgroup files ({@code cgroup.procs}, {@code cgroup.events}) are kept open. */
  static final int OPEN_CGROUP_FILES = 32;

  private final Path cgroup;
  private final String tag;
  private final ContainmentRecord record;
  private final IntPredicate watched;
  private final Subreaper subreaper;
  private final int procsPerGroup;

  /** Whether the job cgroups have the pids controller: {@code pids.max} is set in each. */
  private final boolean pidsMax;

  /** Each live group's cgroup. */
  private final Map<String, Path> groups = new ConcurrentHashMap<>();

  /**
   * Emptied cgroups kept for the next groups (at most {@link #SPARE_CGROUPS}): creating and
   * removing a cgroup for every job cost more than the job's {@code posix_spawn}. Guarded by
   * itself.
   */
  private final ArrayDeque<Path> spare = new ArrayDeque<>();

  /** The {@code cgroup.procs} and {@code cgroup.events} of the cgroups used last, open. */
  private final KernelFiles files = new KernelFiles(OPEN_CGROUP_FILES);

  private final OwnChildren ownChildren = new OwnChildren();

  /** The live groups {@link #adopt} moved a process into: {@link #endEscapees} looks for theirs. */
  private final Set<String> movedIn = ConcurrentHashMap.newKeySet();

  private final AtomicLong cgroupNames = new AtomicLong();
  private volatile boolean moveFailed;
  private volatile boolean closed;

  CgroupContainment(
      Path cgroup, String tag, ContainmentRecord record, IntPredicate watched, int procsPerGroup) {
    this.cgroup = cgroup;
    this.procsPerGroup = procsPerGroup;
    this.pidsMax = CgroupFs.enablePids(cgroup);
    this.tag = tag;
    this.record = record;
    this.watched = watched;
    this.subreaper = new Subreaper(watched);
    writeRecord();
  }

  @Override
  public Mode mode() {
    return Mode.CGROUP;
  }

  @Override
  public String describe() {
    return record.describe("cgroup v2 (" + cgroup + "); " + procLimitHow());
  }

  @Override
  public void describeStarts(String how) {
    record.starts(how);
    writeRecord();
  }

  private void writeRecord() {
    record.write(cgroup, tag, describe());
  }

  @Override
  public int procsPerGroup() {
    return procsPerGroup;
  }

  /**
   * The kernel's bound, {@code pids.max}, counts threads as well as processes: a multi-threaded
   * rank (OpenMP, a JVM) must not meet it first, so it is {@link #THREADS_PER_PROCESS} tasks for
   * each process the sweep allows.
   */
  private long tasksPerGroup() {
    return (long) procsPerGroup * THREADS_PER_PROCESS;
  }

  /** Tasks {@code pids.max} allows for each process of a job's bound. */
  static final int THREADS_PER_PROCESS = 64;

  @Override
  public String procLimitHow() {
    return pidsMax
        ? "at most "
            + procsPerGroup
            + " processes a job, counted in its cgroup, and "
            + tasksPerGroup()
            + " tasks (pids.max)"
        : "at most "
            + procsPerGroup
            + " processes a job, counted in its cgroup (no pids controller)";
  }

  @Override
  public List<String> pastProcLimit(Collection<String> live) {
    List<String> past = new ArrayList<>();
    for (String g : live) {
      Path dir = groups.get(g);
      if (dir != null
          && (CgroupFs.countProcs(dir) > procsPerGroup
              || (pidsMax && CgroupFs.forksRefused(dir) > 0))) {
        past.add(g);
      }
    }
    return past;
  }

  @Override
  public int keptCgroups() {
    synchronized (spare) {
      return spare.size();
    }
  }

  @Override
  public String[] tagFor(String group) {
    return new String[] {TAG_VARIABLE, tag + "/" + group};
  }

  /**
   * The process is moved first, so what it forks from then on is born inside; then its children,
   * read after the move, are moved the same way, and so on down. What was forked before a move by a
   * parent that died before its children were read has been reparented to this process, the
   * subreaper: those of this host's children that carry this host's tag and are not {@code watched}
   * are moved into the group their tag names ({@link #adoptOrphans}).
   */
  @Override
  public void adopt(int pid, String group) {
    Path dir;
    try {
      dir = cgroupOf(group);
    } catch (IOException e) {
      warnMoveFailed(pid, cgroup, e);
      return;
    }
    movedIn.add(group);
    moveInto(pid, dir);
    adoptOrphans(pid);
  }

  /**
   * Moves the orphans reparented to this process into their groups, reading its children again
   * until a read finds none it has not seen: a parent that exits after a read (one of the orphans
   * themselves, or one met while moving them) reparents its children to this process after it. An
   * orphan still exiting has no environment to read its tag from and is waited for until it is a
   * zombie, its children reparented ({@link ProcScan#settledGroupOf}); all of it bounded by {@link
   * #ORPHANS_SETTLE_MS}. Without this, a daemon's middle process exiting at the read left its child
   * outside the job's cgroup, and the child outlived its job.
   */
  private void adoptOrphans(int pid) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ORPHANS_SETTLE_MS);
    Set<Integer> seen = new HashSet<>();
    boolean more = true;
    while (more && System.nanoTime() - deadline < 0) {
      more = false;
      for (int orphan : ownChildren.read()) {
        if (orphan == pid || watched.test(orphan) || !seen.add(orphan)) {
          continue;
        }
        more = true;
        String g = ProcScan.settledGroupOf(orphan, tag, deadline);
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
  }

  /** How long {@link #adopt} waits at most for the orphans it finds to settle (exit or exec). */
  static final long ORPHANS_SETTLE_MS = 500;

  /** Made or taken from the kept ones as {@link #adopt} would; {@code null} if none can be made. */
  @Override
  public Path birthplace(String group) {
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
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
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
      if (pidsMax) {
        KernelFiles.writeSmall(dir.resolve("pids.max"), Long.toString(tasksPerGroup()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
        todo.addAll(ProcScan.mainThreadChildrenOf(p));
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
    ByteBuffer value = ByteBuffer.wrap(Integer.toString(pid).getBytes(StandardCharsets.ISO_8859_1));
    files.withKeptOpen(
        dir.resolve("cgroup.procs"), StandardOpenOption.WRITE, ch -> ch.write(value, 0));
  }

  /**
   * Whether anything still runs in {@code dir} ({@code populated} in its {@code cgroup.events}),
   * read again from its start through the kept open file; false if the cgroup is gone.
   */
  private boolean populatedNow(Path dir) {
    ByteBuffer b = ByteBuffer.allocate(128);
    try {
      files.withKeptOpen(
          dir.resolve("cgroup.events"), StandardOpenOption.READ, ch -> ch.read(b, 0));
    } catch (IOException e) {
      return false;
    }
    return CgroupFs.populated(new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1));
  }

  /**
   * {@code cgroup.kill} if anything of the group still runs; then, for a group whose processes were
   * moved in, the orphans of it this process adopted outside its cgroup ({@link #endEscapees}). A
   * group born inside has nothing outside: no scan of this process's children for it.
   */
  @Override
  public void end(String group) {
    Path dir;
    synchronized (groups) {
      dir = groups.remove(group);
    }
    if (dir != null) {
      boolean clean = !populatedNow(dir);
      if (!clean) {
        CgroupFs.kill(dir);
      }
      retire(dir, clean);
    }
    endEscapees(group);
  }

  /**
   * The backstop of {@link #adopt}: once a group moved in has ended (after its {@code cgroup.kill},
   * which reparents to this process what its killed processes had outside), KILLs the children of
   * this process's main thread that carry the group's tag, generation after generation, bounded by
   * {@link ProcScan#KILL_WAIT_MS}. What an adoption missed (still unsettled at its bound) thus ends
   * with its job once it is an orphan of this process.
   */
  private void endEscapees(String group) {
    if (!movedIn.remove(group)) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ProcScan.KILL_WAIT_MS);
    boolean found = true;
    while (found && System.nanoTime() - deadline < 0) {
      found = false;
      for (int orphan : ownChildren.read()) {
        if (!watched.test(orphan) && group.equals(ProcScan.groupOf(orphan, tag))) {
          Posix.kill(orphan, 9);
          found = true;
        }
      }
      if (found) {
        Thread.yield(); // the killed ones' children are reparented as they die
      }
    }
  }

  @Override
  public boolean endIfNothingRuns(String group) {
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
    endEscapees(group);
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
    // pids.events counts refused forks for the cgroup's life: one that met its bound is not reused.
    if (clean && !(pidsMax && CgroupFs.forksRefused(dir) > 0)) {
      synchronized (spare) {
        if (spare.size() < SPARE_CGROUPS && !closed) {
          spare.addLast(dir);
          return;
        }
      }
    }
    files.forget(dir.resolve("cgroup.procs"));
    files.forget(dir.resolve("cgroup.events"));
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // Not empty (a process in uninterruptible sleep): left for endAll.
    }
  }

  @Override
  public void reapAdopted() {
    subreaper.reapAdopted();
  }

  /** Kills the host's cgroup with every job's in it, then any process that could not be moved. */
  @Override
  public void endAll() {
    groups.clear();
    movedIn.clear();
    synchronized (spare) {
      spare.clear();
    }
    files.forgetAll();
    CgroupFs.kill(cgroup);
    CgroupFs.removeEmptyBelow(cgroup);
    ProcScan.killTagged(tag + "/", pid -> false); // any that could not be moved
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    endAll();
    ownChildren.close();
    // This process stays the child subreaper: only SubreaperContainment.close leaves it.
    CgroupFs.removeEmptyBelow(cgroup);
    try {
      Files.deleteIfExists(cgroup);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot remove " + cgroup + ": " + e);
    }
    record.delete();
  }
}
