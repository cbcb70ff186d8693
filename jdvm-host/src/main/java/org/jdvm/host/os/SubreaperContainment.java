package org.jdvm.host.os;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Containment where no cgroup v2 can be made: each process leads its own session, an orphaned
 * descendant is reparented to the controller (the subreaper) rather than to init, and a job ends
 * with a KILL to every adopted orphan that carries the job's tag, generation after generation. A
 * group's processes are counted by their tag ({@link #pastProcLimit}): one scan of {@code /proc} a
 * sweep; a process that drops the tag from its environment escapes the count as it escapes the end.
 */
final class SubreaperContainment implements Containment {
  private final String tag;
  private final ContainmentRecord record;
  private final IntPredicate watched;
  private final Subreaper subreaper;
  private final int procsPerGroup;
  private volatile boolean closed;

  SubreaperContainment(
      String tag, ContainmentRecord record, IntPredicate watched, int procsPerGroup) {
    this.tag = tag;
    this.procsPerGroup = procsPerGroup;
    this.record = record;
    this.watched = watched;
    this.subreaper = new Subreaper(watched);
    writeRecord();
  }

  @Override
  public Mode mode() {
    return Mode.SUBREAPER;
  }

  @Override
  public String describe() {
    return record.describe(
        "child subreaper and process groups (no writable cgroup v2); " + procLimitHow());
  }

  @Override
  public void describeStarts(String how) {
    record.starts(how);
    writeRecord();
  }

  private void writeRecord() {
    record.write(null, tag, describe());
  }

  @Override
  public int procsPerGroup() {
    return procsPerGroup;
  }

  @Override
  public String procLimitHow() {
    return "at most " + procsPerGroup + " processes a job, counted by their tag";
  }

  @Override
  public List<String> pastProcLimit(Collection<String> live) {
    Map<String, Integer> counts = ProcScan.countTagged(tag);
    List<String> past = new ArrayList<>();
    for (String g : live) {
      if (counts.getOrDefault(g, 0) > procsPerGroup) {
        past.add(g);
      }
    }
    return past;
  }

  @Override
  public int keptCgroups() {
    return 0;
  }

  @Override
  public String[] tagFor(String group) {
    return new String[] {TAG_VARIABLE, tag + "/" + group};
  }

  /** Nothing to move: a process is contained by its session and its tag from its start. */
  @Override
  public void adopt(int pid, String group) {}

  @Override
  public Path birthplace(String group) {
    return null;
  }

  /**
   * KILLs the orphans this process adopted that carry the group's tag: once the group's own
   * processes have ended, whatever is left of it has been reparented to this process, and each kill
   * reparents the next generation.
   */
  @Override
  public void end(String group) {
    ProcScan.killTagged(tag + "/" + group + "\u0000", watched);
  }

  @Override
  public boolean endIfNothingRuns(String group) {
    return false;
  }

  @Override
  public void reapAdopted() {
    subreaper.reapAdopted();
  }

  /** KILLs every process carrying this host's tag, wherever it runs. */
  @Override
  public void endAll() {
    ProcScan.killTagged(tag + "/", null);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    endAll();
    Subreaper.leave();
    record.delete();
  }
}
