package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.core.engine.Core;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;

/** The README's example, run: a NEW allocation granted by the scheduler and a spawn into it. */
class ReadmeExampleTest {

  @Test
  void theReadmeExampleDoesWhatTheReadmeSays() {
    Core core = new Core(CoreConfig.of("jdvm", List.of(new NodeSpec("head", 8))));
    App app = new App("hostname", List.of("hostname"), List.of(), null, 2, List.of());
    long t = 0;
    Outcome registered = core.handle(new Request.RegisterTool(new RequestId(1), null), t);
    assertThat(TestDvm.string(TestDvm.reply(registered), "pmix.nspace")).isEqualTo("jdvm@1");
    Proc tool = new Proc("jdvm@1", 0);

    Outcome asked =
        core.handle(
            Request.Allocate.builder(new RequestId(2), tool, AllocDirective.NEW)
                .nodeCount(2)
                .inheritance(AllocInheritance.CHILD.code())
                .allocReqId("mine")
                .build(),
            t);
    Effect.AskScheduler ask = TestDvm.only(asked, Effect.AskScheduler.class);
    assertThat(ask.askId()).isEqualTo(1);
    assertThat(ask.nodeCount()).isEqualTo(2);

    Outcome granted =
        core.handle(
            new Report.SchedulerGranted(
                1, List.of(new NodeSpec("s1", 4), new NodeSpec("s2", 4)), null, 3600L),
            t);
    assertThat(granted.effects().get(0)).isInstanceOf(Effect.AddNodes.class);
    assertThat(TestDvm.reply(granted).infos().toString())
        .contains("pmix.alloc.id", "jdvm@1.1", "mine", "s1,s2", "3600");

    Outcome spawned =
        core.handle(
            Request.Spawn.of(new RequestId(3), tool, List.of(app)).withTarget(List.of("jdvm@1.1")),
            t);
    Effect.LaunchProcs launch = TestDvm.only(spawned, Effect.LaunchProcs.class);
    assertThat(launch.node()).isEqualTo("s1");
    assertThat(launch.namespace()).isEqualTo("jdvm@2");
    assertThat(launch.procs().get(0).env())
        .containsExactly("JDVM_SESSION_ID=1", "JDVM_ALLOC_ID=jdvm@1.1");
    assertThat(core.view().allocation("jdvm@1.1").orElseThrow().owners())
        .containsExactly("jdvm@1", "jdvm@2");

    Outcome launched =
        core.handle(
            new Report.ProcsLaunched(
                "s1",
                "jdvm@2",
                List.of(new Report.LaunchedProc(0, 4711), new Report.LaunchedProc(1, 4712))),
            t);
    Effect.Reply reply = TestDvm.reply(launched);
    assertThat(reply.requestId()).isEqualTo(new RequestId(3));
    assertThat(TestDvm.string(reply, "pmix.nspace")).isEqualTo("jdvm@2");
  }
}
