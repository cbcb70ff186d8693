package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jdvm.pmix.AllocInheritance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path home;

  @Test
  void aToolAllocatesSpawnsIntoTheAllocationAndSeesTheJobEnd() throws Exception {
    try (TestDvm t = TestDvm.start(home, 2, 2, 2)) {
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient tool = t.tool(out);
      AllocationResult a =
          tool.allocate(
              AllocationRequest.newAllocation()
                  .nodes(1)
                  .inheritance(AllocInheritance.CHILD)
                  .build());
      assertThat(a.allocId()).isNotNull();
      assertThat(a.nodes()).hasSize(1);
      Job job =
          tool.spawn(
              SpawnRequest.of("sh", "-c", "echo hi $PMIX_RANK@$PMIX_HOSTNAME")
                  .procs(2)
                  .target(a.allocId())
                  .build());
      JobEnd end = job.awaitEnd();
      assertThat(end.exitCode()).isZero();
      assertThat(out.of(job.nspace(), 0, false)).isEqualTo("hi 0@" + a.nodes().get(0) + "\n");
      assertThat(tool.jobsJson()).contains(job.nspace());
    }
  }
}
