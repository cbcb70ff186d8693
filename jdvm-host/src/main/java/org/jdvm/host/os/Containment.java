package org.jdvm.host.os;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Keeps every descendant of every process the host starts, so that all of them can be ended: the
 * ones that call {@code setsid}, double-fork or daemonize too. Two mechanisms, as PRRTE's odls
 * components are, chosen once in {@link #open} where the kernel lets us:
 *
 * <ul>
 *   <li>{@link CgroupContainment} (as Slurm's proctrack/cgroup and systemd scopes do): one cgroup
 *       v2 per job and node, ended with {@code cgroup.kill};
 *   <li>{@link SubreaperContainment} otherwise: each process leads its own session, and a job ends
 *       with a KILL to every adopted orphan that carries the job's tag.
 * </ul>
 *
 * <p>In both, the controller is the child subreaper ({@code PR_SET_CHILD_SUBREAPER}, prctl(2)) and
 * every process carries its group's tag ({@link #TAG_VARIABLE} in its environment); adopted orphans
 * that end are reaped ({@link #reapAdopted}). What this host runs is recorded in {@code <dvm
 * dir>/}{@link #RECORD} ({@link ContainmentRecord}): a controller killed outright cannot end its
 * processes, and the next one started on the same directory ends what the record names first.
 *
 * <p>Each group's processes are bounded in number ({@link #DEFAULT_PROCS_PER_GROUP};
 * docs/ARCHITECTURE.md "The process host"): where the host's cgroup v2 can delegate the pids
 * controller, the kernel refuses a fork past {@code pids.max}; in every mode the poller's sweep
 * finds a group past its bound ({@link #pastProcLimit}) and the host ends it.
 */
public sealed interface Containment extends AutoCloseable
    permits CgroupContainment, SubreaperContainment {
  /** The file in the DVM directory that names what the host contains. */
  String RECORD = "procs.contain";

  /** The environment variable that tags a job's processes: {@code jdvm-<pid>-<n>/<group>}. */
  String TAG_VARIABLE = "JDVM_CONTAIN";

  /**
   * The most processes one group (a job on a node) may hold at once: far above a rank's helpers,
   * far below what starves the machine's other users of pids (the fork loop made 3,000 in 6
   * s). In the pids controller's {@code pids.max} the kernel counts threads too.
   */
  int DEFAULT_PROCS_PER_GROUP = 4096;

  /** Which mechanism is active. */
  enum Mode {
    CGROUP,
    SUBREAPER
  }

  /**
   * Ends what a controller killed earlier on {@code dvmDir} left running (its record), then chooses
   * the mechanism — a cgroup if one can be made here and {@code allowCgroup}, else the subreaper —
   * and records it.
   *
   * @param dvmDir the DVM's directory, or {@code null} to record nothing
   * @param allowCgroup whether a cgroup may be used (tests force the other mode with false)
   * @param watched the pids the host watches itself (its own live children), never taken as orphans
   */
  static Containment open(Path dvmDir, boolean allowCgroup, IntPredicate watched) {
    return open(dvmDir, allowCgroup, watched, DEFAULT_PROCS_PER_GROUP);
  }

  /**
   * As {@link #open(Path, boolean, IntPredicate)}, each group bounded to {@code procsPerGroup}
   * processes.
   */
  static Containment open(
      Path dvmDir, boolean allowCgroup, IntPredicate watched, int procsPerGroup) {
    if (procsPerGroup < 1) {
      throw new IllegalArgumentException("a group may hold at least 1 process: " + procsPerGroup);
    }
    ContainmentRecord record = ContainmentRecord.takeOver(dvmDir);
    String name = ContainmentRecord.newName();
    Path cgroup = allowCgroup ? CgroupFs.create(name) : null;
    // The subreaper in both modes: in cgroup mode it catches what a process forked in the moment
    // between its exec and its move into the cgroup, if the parent has died meanwhile (adopt).
    Subreaper.join();
    return cgroup != null
        ? new CgroupContainment(cgroup, name, record, watched, procsPerGroup)
        : new SubreaperContainment(name, record, watched, procsPerGroup);
  }

  /** The description a host on {@code dvmDir} recorded, or {@code null}. */
  static String recordedDescription(Path dvmDir) {
    return ContainmentRecord.recordedDescription(dvmDir);
  }

  /** Whether {@code pid} has ended and waits to be reaped (state Z in {@code /proc/<pid>/stat}). */
  static boolean zombie(int pid) {
    return ProcScan.zombie(pid);
  }

  Mode mode();

  /** One line for {@code jdvm start} and the log (also the record's description line). */
  String describe();

  /** How the host starts processes, for {@link #describe} (and the record jdvm start prints). */
  void describeStarts(String how);

  /** The most processes one group may hold. */
  int procsPerGroup();

  /** How the bound of {@link #procsPerGroup} is kept here, for {@link #describe}. */
  String procLimitHow();

  /**
   * The groups of {@code live} past their bound now: holding more than {@link #procsPerGroup}
   * processes, or (with {@code pids.max}) refused a fork by the kernel. One read per group in
   * cgroup mode; one scan of {@code /proc} for all of them in subreaper mode.
   */
  List<String> pastProcLimit(Collection<String> live);

  /** How many emptied cgroups are kept for the next groups now (cgroup mode; tests). */
  int keptCgroups();

  /** The environment variable (name, value) a job's processes carry. */
  String[] tagFor(String group);

  /**
   * Puts a just-started process, and whatever it has forked already, into {@code group} (cgroup
   * mode only; a process that cannot be moved stays contained by its session and its tag).
   */
  void adopt(int pid, String group);

  /**
   * The cgroup a process of {@code group} can be born in ({@link NativeSpawn}); {@code null}
   * outside cgroup mode or if none can be made. A process born there needs no {@link #adopt}.
   */
  Path birthplace(String group);

  /**
   * Ends every process of {@code group} and every descendant. Returns once they are gone or after a
   * bound.
   */
  void end(String group);

  /**
   * Ends {@code group} at once if nothing of it runs any more (cgroup mode: one read, no kill, no
   * wait), the usual case, so that it costs no hand-off to another thread; false if {@link #end} is
   * needed.
   */
  boolean endIfNothingRuns(String group);

  /**
   * Reaps the adopted orphans that have ended (never a child the host or the JDK watches). Call it
   * now and then, from one thread.
   */
  void reapAdopted();

  /** Ends everything the host contains. */
  void endAll();

  /** Ends everything the host contains and removes what it made (its cgroup, its record). */
  @Override
  void close();
}
