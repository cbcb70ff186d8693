package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.Proc;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.EmbeddedScheduler;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.server.Dvm;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.journal.FsyncPolicy;
import org.jdvm.server.journal.Journal;
import org.jdvm.server.journal.RecoveredJournal;
import org.jdvm.server.journal.Recovering;
import org.jdvm.server.shell.Shell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "The embedded scheduler": a controller that dies after its journal marked a
 * RELEASE done but before the embedded scheduler's step for it reached the journal (the two are
 * written by different threads) leaves a scheduler state in which the released node is still held.
 * The recovered DVM gives it back before it asks for anything, so the node can be granted again.
 */
class LostReleaseRecoveryTest {
  @TempDir Path dir;

  @Test
  void aNodeWhoseReleaseStepWasLostIsGrantedAgainAfterTheRestart() throws Exception {
    DvmConfig config = DvmConfig.embedded("lost", 2, 2, 1, dir);
    CoreConfig coreConfig = CoreConfig.of(config.name(), config.startupNodes());
    Core core = new Core(coreConfig);
    EmbeddedScheduler scheduler = new EmbeddedScheduler(config.spareNodes());
    try (Journal journal =
        new Journal(
            Dvm.journalDir(config),
            FsyncPolicy.NEVER,
            Long.MAX_VALUE,
            core,
            coreConfig,
            RecoveredJournal.fresh(coreConfig))) {
      Outcome registered = run(core, journal, new Request.RegisterTool(new RequestId(1), null));
      Proc tool =
          new Proc(((Change.NamespaceRegistered) registered.changes().get(0)).namespace(), 0);
      Outcome asked =
          run(
              core,
              journal,
              Request.Allocate.builder(new RequestId(2), tool, AllocDirective.NEW)
                  .nodeCount(1)
                  .build());
      Effect.AskScheduler ask =
          asked.effects().stream()
              .filter(Effect.AskScheduler.class::isInstance)
              .map(Effect.AskScheduler.class::cast)
              .findFirst()
              .orElseThrow();
      // The scheduler's step, journaled before its grant goes to the controller.
      List<SchedulerEvent> granted =
          scheduler.ask(
              new Ask(Shell.askId(ask.askId()), Ask.Kind.NEW, null, 1, List.of(), null, null, true),
              0);
      scheduler.remember(granted);
      journal.notes(Recovering.notes(scheduler.save(), EmbeddedScheduler.answersAmong(granted)));
      SchedulerEvent.Granted g = (SchedulerEvent.Granted) granted.get(0);
      run(
          core,
          journal,
          new Report.SchedulerGranted(
              ask.askId(),
              g.nodes().stream().map(n -> new NodeSpec(n.name(), n.slots())).toList(),
              g.allocation(),
              null));
      run(
          core,
          journal,
          Request.Allocate.builder(new RequestId(3), tool, AllocDirective.RELEASE)
              .allocId(g.allocation())
              .build());
      // The release's scheduler step never reached the journal; the DVM's next write marks the
      // release done, and the controller dies.
      run(core, journal, new Request.RegisterTool(new RequestId(4), null));
    }

    DvmServer recovered = DvmServer.start(config);
    try (JdvmClient client = JdvmClient.connector().dir(dir).connect()) {
      AllocationResult again = client.allocate(AllocationRequest.newAllocation().nodes(1).build());
      assertThat(again.allocId()).isNotNull();
    } finally {
      recovered.close();
    }
  }

  private static Outcome run(Core core, Journal journal, Command command) {
    Outcome outcome = core.handle(command, 0);
    journal.record(command, outcome, 0);
    journal.commit();
    journal.dispatched();
    return outcome;
  }
}
