package org.jdvm.host.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pieces of containment on their own: the choice of mechanism made in {@link Containment#open},
 * the crash record, and what is read of {@code /proc} and cgroupfs. (What containment promises
 * about real jobs is {@code ProcessHostContainmentTest}'s.)
 */
class ContainmentTest {
  @TempDir Path dir;

  @Test
  void withoutACgroupTheSubreaperContainsAndRecordsItsTag() throws Exception {
    try (Containment c = Containment.open(dir, false, pid -> false)) {
      assertThat(c).isInstanceOf(SubreaperContainment.class);
      assertThat(c.mode()).isEqualTo(Containment.Mode.SUBREAPER);
      assertThat(c.birthplace("node0/job")).isNull();
      assertThat(c.keptCgroups()).isZero();
      assertThat(c.endIfNothingRuns("node0/job")).isFalse();
      String[] tag = c.tagFor("node0/job");
      assertThat(tag[0]).isEqualTo(Containment.TAG_VARIABLE);
      assertThat(tag[1]).matches("jdvm-\\d+-\\d+/node0/job");
      c.describeStarts("started by clone3");
      List<String> record = Files.readAllLines(dir.resolve(Containment.RECORD));
      assertThat(record)
          .containsExactly(
              "tag " + tag[1].substring(0, tag[1].indexOf('/')),
              "# child subreaper and process groups (no writable cgroup v2); at most "
                  + Containment.DEFAULT_PROCS_PER_GROUP
                  + " processes a job, counted by their tag; started by clone3");
      assertThat(Containment.recordedDescription(dir)).isEqualTo(c.describe());
    }
    assertThat(dir.resolve(Containment.RECORD)).as("removed on close").doesNotExist();
  }

  @Test
  void whereACgroupCanBeMadeItIsTheCgroupThatContains() {
    try (Containment c = Containment.open(null, true, pid -> false)) {
      assumeTrue(c.mode() == Containment.Mode.CGROUP, "no writable cgroup v2 here");
      assertThat(c).isInstanceOf(CgroupContainment.class);
      Path born = c.birthplace("node0/job");
      assertThat(born).isDirectory();
      assertThat(c.birthplace("node0/job")).as("one cgroup a group").isEqualTo(born);
      assertThat(c.endIfNothingRuns("node0/job")).as("nothing ran in it").isTrue();
      assertThat(c.keptCgroups()).as("kept for the next group").isEqualTo(1);
      assertThat(c.birthplace("node0/next")).as("the kept one, reused").isEqualTo(born);
    }
  }

  /**
   * The backstop of a job moved in: what of it an adoption could not move (found only after its
   * bound, or forked where no read sees it) and that the host adopted as an orphan is killed by its
   * tag when the job ends, after {@code cgroup.kill}. Here the escapee is made on purpose: a tagged
   * middle process no adoption looked at exits, its child reparented to this process.
   */
  @Test
  void aJobMovedInEndsWithWhatOfItTheHostAdoptedOutsideItsCgroup() throws Exception {
    java.util.Set<Integer> ours = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try (Containment c = Containment.open(null, true, ours::contains)) {
      assumeTrue(c.mode() == Containment.Mode.CGROUP, "no writable cgroup v2 here");
      String[] tag = c.tagFor("node0/job");
      ProcessBuilder in = new ProcessBuilder("sleep", "300");
      in.environment().put(tag[0], tag[1]);
      Process inside = in.start();
      ours.add((int) inside.pid());
      c.adopt((int) inside.pid(), "node0/job");
      ProcessBuilder mid = new ProcessBuilder("sh", "-c", "sleep 301 >/dev/null 2>&1 & echo $!");
      mid.environment().put(tag[0], tag[1]);
      Process middle = mid.start();
      ours.add((int) middle.pid());
      int escapee = -1;
      try {
        escapee = Integer.parseInt(new String(middle.getInputStream().readAllBytes()).trim());
        assertThat(middle.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcScan.groupOf(escapee, tag[1].substring(0, tag[1].indexOf('/'))))
            .isEqualTo("node0/job");
        c.end("node0/job");
        int e = escapee;
        org.jdvm.host.Await.until(
            () -> !Files.exists(Path.of("/proc/" + e)) || ProcScan.zombie(e),
            "the escapee " + e + " to end with its job");
        assertThat(inside.waitFor(20, TimeUnit.SECONDS)).isTrue();
      } finally {
        inside.destroyForcibly();
        if (escapee > 0) {
          Posix.kill(escapee, 9);
        }
      }
    }
  }

  @Test
  void aRecordOfSomethingThisCodeDidNotNameEndsNothing() throws Exception {
    Path record = dir.resolve(Containment.RECORD);
    Files.writeString(record, "cgroup " + dir + "\ntag not-jdvm\n# whatever\n");
    assertThat(ContainmentRecord.endRecorded(record)).isNull();
    assertThat(record).as("read once, then removed").doesNotExist();
  }

  @Test
  void aTaggedProcessIsFoundByItsTagAndKilled() throws Exception {
    String tag = "jdvm-test-" + ProcessHandle.current().pid();
    ProcessBuilder b = new ProcessBuilder("sleep", "300");
    b.environment().put(Containment.TAG_VARIABLE, tag + "/node0/job");
    Process p = b.start();
    try {
      int pid = (int) p.pid();
      assertThat(ProcScan.groupOf(pid, tag)).isEqualTo("node0/job");
      assertThat(ProcScan.groupOf(pid, "jdvm-other")).isNull();
      assertThat(ProcScan.childrenOf((int) ProcessHandle.current().pid())).contains(pid);
      assertThat(ProcScan.zombie(pid)).isFalse();
      assertThat(ProcScan.killTagged(tag + "/", null)).isPositive();
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void pidListsAndCgroupEventsAreParsedAsTheKernelWritesThem() {
    List<Integer> pids = new java.util.ArrayList<>();
    ProcScan.parsePids("12 345 6\n", pids);
    ProcScan.parsePids("", pids);
    ProcScan.parsePids("7", pids);
    assertThat(pids).containsExactly(12, 345, 6, 7);
    assertThat(CgroupFs.populated("populated 1\nfrozen 0\n")).isTrue();
    assertThat(CgroupFs.populated("populated 0\nfrozen 0\n")).isFalse();
    assertThat(CgroupFs.populated("")).isFalse();
  }
}
