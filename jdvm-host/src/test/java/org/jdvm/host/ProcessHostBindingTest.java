package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.jdvm.host.os.Affinity;
import org.jdvm.host.os.NativeSpawn;
import org.jdvm.host.topology.CpuList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bound launch ({@link LaunchRequest#cpus}) is bound before it runs: by the C starter in the
 * child before its exec, and by {@code posix_spawn}'s caller, whose own affinity is given back. The
 * process reads its own {@code Cpus_allowed_list}.
 */
class ProcessHostBindingTest {
  private static final Map<String, String> ENV = Map.of("PATH", "/usr/bin:/bin");
  private static final String READ = "grep Cpus_allowed_list /proc/self/status";

  @TempDir Path dir;
  private final List<ProcessHost> hosts = new ArrayList<>();
  private final List<ProcessHost.RunningProc> started = new ArrayList<>();

  @AfterEach
  void endEverythingThisTestStarted() {
    for (ProcessHost.RunningProc p : started) {
      ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
    }
    hosts.forEach(ProcessHost::close);
  }

  private String allowedIn(ProcessHost h, BitSet cpus) throws Exception {
    ProcessHostMergeTest.Streams s = new ProcessHostMergeTest.Streams();
    LaunchRequest r =
        new LaunchRequest(List.of("sh", "-c", READ), ENV, null, false, false).boundTo(cpus);
    started.add(h.start("node0/a", r, s));
    assertThat(s.awaitExit()).containsExactly(0, 0);
    return s.out.toString().replace("Cpus_allowed_list:", "").strip();
  }

  private ProcessHost host() {
    ProcessHost h = new ProcessHost(dir, false, Integer.MAX_VALUE, Long.MAX_VALUE);
    hosts.add(h);
    return h;
  }

  /** The last cpu this test may use: a binding that differs from the test's own. */
  private static BitSet lastCpu() throws Exception {
    BitSet own = Affinity.ofThisThread();
    BitSet one = new BitSet();
    one.set(own.length() - 1);
    return one;
  }

  @Test
  void theNativeStarterBindsTheChildBeforeItsExec() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(NativeSpawn.unavailable().isEmpty());
    BitSet one = lastCpu();
    assertThat(allowedIn(host(), one)).isEqualTo(CpuList.format(one));
    assertThat(allowedIn(host(), null)).isEqualTo(CpuList.format(Affinity.ofThisThread()));
  }

  @Test
  void posixSpawnBindsThroughItsCallerAndGivesTheCallerItsCpusBack() throws Exception {
    BitSet own = Affinity.ofThisThread();
    BitSet one = lastCpu();
    ProcessHost h = host().startingWithPosixSpawn();
    assertThat(allowedIn(h, one)).isEqualTo(CpuList.format(one));
    assertThat(Affinity.ofThisThread()).isEqualTo(own);
  }
}
