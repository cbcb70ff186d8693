package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ending reservations while jobs still run on them, through the real protocol (spec §8.2.1.9.2,
 * §8.2.1.9.4): a job dies only when its nodes leave the DVM, never because a reservation was merely
 * unreserved; CHILD_DEFAULT waits for the last derived child.
 */
class DispositionProtocolTest {
  @TempDir Path home;
  private TestDvm t;
  private JdvmClient tool;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 2, 2, 2);
    tool = t.tool();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void releasingSchedulerNodesUnderARunningJobEndsTheJobAsTheNodesLeave() throws Exception {
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").target(a.allocId()).build());
    tool.allocate(AllocationRequest.release().allocId(a.allocId()).build());
    JobEnd end = job.awaitEnd();
    assertThat(end.status()).isNotEqualTo(PmixStatus.SUCCESS);
    TestDvm.await(() -> !t.nodeNames().contains(a.nodes().get(0)), "the node to leave");
  }

  @Test
  void releasingStartupNodesUnderARunningJobRevertsThemAndTheJobRunsOn() throws Exception {
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodeList("node1").build());
    assertThat(t.reservedNodes()).containsExactly("node1");
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").target(a.allocId()).build());
    tool.allocate(AllocationRequest.release().allocId(a.allocId()).build());
    assertThat(t.reservedNodes()).isEmpty();
    assertThat(t.nodeNames()).contains("node1");
    assertThat(t.jobState(job.nspace())).isEqualTo(JobView.State.RUNNING);
  }

  @Test
  void anUnreservedReservationLeavesItsRunningJobAlone() throws Exception {
    JdvmClient owner = t.tool();
    AllocationResult a =
        owner.allocate(
            AllocationRequest.newAllocation()
                .nodes(1)
                .inheritance(AllocInheritance.DEFAULT)
                .build());
    Job job = owner.spawn(SpawnRequest.of("sleep", "60").target(a.allocId()).build());
    owner.close();
    TestDvm.await(() -> !t.allocationExists(a.allocId()), "DEFAULT to unreserve");
    assertThat(t.nodeNames()).containsAll(a.nodes());
    assertThat(t.reservedNodes()).isEmpty();
    assertThat(t.jobState(job.nspace())).isEqualTo(JobView.State.RUNNING);
  }

  @Test
  void childDefaultWaitsForTheLastDerivedChildAndThenOnlyUnreserves() throws Exception {
    JdvmClient owner = t.tool();
    JdvmClient scheduler = t.scheduler();
    AllocationResult a =
        owner.allocate(
            AllocationRequest.newAllocation()
                .nodes(1)
                .inheritance(AllocInheritance.CHILD_DEFAULT)
                .build());
    Job child = owner.spawn(SpawnRequest.of("sleep", "60").target(a.allocId()).build());
    owner.close();
    TestDvm.await(
        () -> t.jobState(owner.self().nspace()) == JobView.State.TERMINATED, "the owner to end");
    assertThat(t.allocationExists(a.allocId())).as("held by the child").isTrue();
    scheduler.terminate(child.nspace());
    TestDvm.await(() -> !t.allocationExists(a.allocId()), "the child's end to fire it");
    assertThat(t.nodeNames()).containsAll(a.nodes());
    assertThat(t.reservedNodes()).isEmpty();
  }
}
