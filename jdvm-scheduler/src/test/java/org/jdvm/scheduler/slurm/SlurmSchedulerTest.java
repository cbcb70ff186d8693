package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.scheduler.slurm.SlurmDriver.S;
import static org.jdvm.scheduler.slurm.SlurmDriver.failed;
import static org.jdvm.scheduler.slurm.SlurmDriver.ok;
import static org.jdvm.scheduler.slurm.SlurmDriver.row;
import static org.jdvm.scheduler.slurm.SlurmDriver.shown;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerEvent.Cancelled;
import org.jdvm.scheduler.SchedulerEvent.Granted;
import org.jdvm.scheduler.SchedulerEvent.Queued;
import org.jdvm.scheduler.SchedulerEvent.Reclaimed;
import org.jdvm.scheduler.SchedulerEvent.Refused;
import org.jdvm.scheduler.SchedulerEvent.Warning;
import org.junit.jupiter.api.Test;

/**
 * {@link SlurmScheduler}'s decisions without a Slurm, a thread or a clock: each input with its
 * time, each command it asks for answered by the test ({@link SlurmDriver}).
 */
class SlurmSchedulerTest {
  private static Ask newAsk(String id, int count, Long limit, Long warn, boolean required) {
    return new Ask(id, Ask.Kind.NEW, null, count, List.of(), limit, warn, required);
  }

  private static Ask extend(String id, String allocation, int count, Long seconds) {
    return new Ask(id, Ask.Kind.EXTEND, allocation, count, List.of(), seconds, null, false);
  }

  /** Slurm grants job {@code job} on {@code nodes} to ask {@code id}, ending at {@code end} s. */
  private static Granted grant(SlurmDriver d, Ask ask, String job, long end, String... nodes) {
    d.slurm = argv -> ok(shown(job, end, nodes));
    d.run(d.s.ask(ask, d.now()));
    List<SchedulerEvent> e = d.line(ask.askId(), "salloc: Granted job allocation " + job);
    assertThat(e).hasSize(1).first().isInstanceOf(Granted.class);
    return (Granted) e.getFirst();
  }

  @Test
  void aNewAskIsASallocNamedWithTheTagQueuedThenGrantedWithTheJobsNodesAndEndTime() {
    SlurmDriver d = new SlurmDriver("abc");
    d.run(d.s.ask(newAsk("1", 2, 90L, null, false), d.now()));
    assertThat(d.ran("salloc"))
        .containsExactly(
            List.of("salloc", "--no-shell", "--job-name=jdvm-abc", "--nodes=2", "--time=2"));
    assertThat(d.line("1", "salloc: Pending job allocation 7")).containsExactly(new Queued("1", 1));
    assertThat(d.s.save().waiting()).extracting(SlurmRecovery.Waiting::jobId).containsExactly("7");

    d.nowNs = 3 * S;
    d.slurm = argv -> ok(shown("7", 123, "node1", "node2"));
    assertThat(d.line("1", "salloc: Granted job allocation 7"))
        .containsExactly(
            new Granted(
                "1", "7", List.of(new NodeGrant("node1", 4), new NodeGrant("node2", 4)), 123 * S));
    assertThat(d.ran("scontrol").getLast()).endsWith("7");
    assertThat(d.s.jobOf("node2")).contains("7");
    assertThat(d.s.save().waiting()).isEmpty();
    assertThat(d.s.save().allocations())
        .containsExactly(
            new SlurmRecovery.Held(
                "7",
                List.of(new SlurmRecovery.Job("7", List.of("node1", "node2"))),
                123 * S,
                null,
                false));
    assertThat(d.exit("1", 0)).as("salloc exits after the grant: nothing more").isEmpty();
  }

  @Test
  void aRequiredAskIsNotQueuedAndAnAskMadeAgainWhileItsSallocRunsGetsNothing() {
    SlurmDriver d = new SlurmDriver();
    d.run(d.s.ask(newAsk("1", 1, null, null, true), d.now()));
    assertThat(d.ran("salloc").getFirst())
        .contains("--immediate")
        .noneMatch(a -> a.startsWith("--time"));
    assertThat(d.line("1", "salloc: Pending job allocation 9")).isEmpty();
    assertThat(d.run(d.s.ask(newAsk("1", 1, null, null, true), d.now()))).isEmpty();
    assertThat(d.ran("salloc")).hasSize(1);
  }

  @Test
  void aCancelledAskHasItsJobCancelledAndItsSallocEndedAndAGrantThatFollowsIsGivenBack() {
    SlurmDriver d = new SlurmDriver();
    d.run(d.s.ask(newAsk("1", 1, null, null, false), d.now()));
    d.line("1", "salloc: Pending job allocation 9");
    SallocAsk salloc = d.sallocs.get("1");
    assertThat(d.run(d.s.cancel("1"))).containsExactly(new Cancelled("1"));
    assertThat(d.ran("scancel")).containsExactly(List.of("scancel", "9"));
    assertThat(d.ended).containsExactly(salloc);
    assertThat(d.line("1", "salloc: Granted job allocation 9")).isEmpty();
    assertThat(d.ran("scancel")).hasSize(2);
    assertThat(d.exit("1", 1)).isEmpty();
    assertThat(d.run(d.s.cancel("1"))).as("answered once").isEmpty();
    assertThat(d.s.save().waiting()).isEmpty();
  }

  @Test
  void aRequestSlurmCanNeverServeIsRefusedAsSoonAsItsJobIsKnown() {
    SlurmDriver d = new SlurmDriver();
    d.run(d.s.ask(newAsk("1", 9, null, null, false), d.now()));
    assertThat(
            d.line(
                "1",
                "salloc: error: Requested node configuration is not available"
                    + " (PartitionNodeLimit)"))
        .isEmpty();
    List<SchedulerEvent> e = d.line("1", "salloc: Pending job allocation 12");
    assertThat(e).hasSize(1);
    Refused r = (Refused) e.getFirst();
    assertThat(r.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(r.reason()).startsWith("Slurm can never grant the nodes: ");
    assertThat(d.ran("scancel")).containsExactly(List.of("scancel", "12"));
    assertThat(d.ended).containsExactly(d.sallocs.get("1"));
    assertThat(d.exit("1", 1)).isEmpty();
  }

  @Test
  void aSallocThatExitsOrCannotStartRefusesItsAsk() {
    SlurmDriver d = new SlurmDriver();
    d.run(d.s.ask(newAsk("1", 1, null, null, true), d.now()));
    d.line("1", "salloc: error: Unable to allocate resources: Requested nodes are busy");
    Refused r = (Refused) d.exit("1", 1).getFirst();
    assertThat(r.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(r.reason())
        .isEqualTo(
            "Slurm did not grant the nodes: Unable to allocate resources:"
                + " Requested nodes are busy");

    d.sallocFails = "No such file or directory";
    List<SchedulerEvent> e = d.run(d.s.ask(newAsk("2", 1, null, null, true), d.now()));
    assertThat(e)
        .containsExactly(
            new Refused(
                "2", PmixStatus.ERR_NOT_SUPPORTED, "cannot run salloc: No such file or directory"));
    assertThat(d.s.save().waiting()).isEmpty();
  }

  @Test
  void aGrantSlurmCannotShowIsCancelledAndRefused() {
    SlurmDriver d = new SlurmDriver();
    d.run(d.s.ask(newAsk("1", 1, null, null, true), d.now()));
    d.slurm = argv -> failed("scontrol: error: Invalid job id specified");
    List<SchedulerEvent> e = d.line("1", "salloc: Granted job allocation 5");
    assertThat(e)
        .containsExactly(
            new Refused(
                "1",
                PmixStatus.ERROR,
                "Slurm job 5 was granted but cannot be read: scontrol: error: Invalid job id"
                    + " specified"));
    assertThat(d.ran("scancel")).containsExactly(List.of("scancel", "5"));
    assertThat(d.s.save().allocations()).isEmpty();
  }

  @Test
  void loansAreRefusedAndAnExtensionOfAnUnknownAllocationToo() {
    SlurmDriver d = new SlurmDriver();
    List<SchedulerEvent> e =
        d.run(
            d.s.ask(
                new Ask("1", Ask.Kind.LEND, "7", 0, List.of("node1"), null, null, false), d.now()));
    assertThat(((Refused) e.getFirst()).status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    e =
        d.run(
            d.s.ask(
                new Ask("2", Ask.Kind.REAQUIRE, "7", 0, List.of(), null, null, false), d.now()));
    assertThat(((Refused) e.getFirst()).status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    e = d.run(d.s.ask(extend("3", "7", 1, null), d.now()));
    assertThat(e)
        .containsExactly(new Refused("3", PmixStatus.ERR_NOT_FOUND, "no Slurm allocation 7"));
    assertThat(d.ran).isEmpty();
  }

  @Test
  void theWarningComesAtItsLeadAndTheAllocationIsReclaimedAtSlurmsEndTime() {
    SlurmDriver d = new SlurmDriver();
    grant(d, newAsk("1", 1, 60L, 10L, true), "7", 60, "node1");
    assertThat(d.s.nextDeadlineNs()).isEqualTo(50 * S);
    d.nowNs = 49 * S;
    assertThat(d.tick()).isEmpty();
    d.nowNs = 50 * S + 1;
    assertThat(d.tick()).containsExactly(new Warning("7", 10));
    assertThat(d.s.nextDeadlineNs()).isEqualTo(60 * S);
    assertThat(d.tick()).as("once").isEmpty();
    d.nowNs = 60 * S;
    assertThat(d.tick()).containsExactly(new Reclaimed("7", List.of("node1"), true));
    assertThat(d.ran("scancel")).containsExactly(List.of("scancel", "7"));
    assertThat(d.s.jobOf("node1")).isEmpty();
    assertThat(d.s.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void releaseShrinksAJobOrCancelsItWhenItKeepsNoNode() {
    SlurmDriver d = new SlurmDriver();
    grant(d, newAsk("1", 3, null, null, true), "7", 60, "node1", "node2", "node3");
    assertThat(d.run(d.s.release("7", List.of("node2")))).isEmpty();
    assertThat(d.ran.getLast())
        .containsExactly("scontrol", "update", "JobId=7", "NodeList=node1,node3");
    assertThat(d.s.jobOf("node2")).isEmpty();
    d.run(d.s.release("7", List.of("node1", "node3")));
    assertThat(d.ran("scancel")).containsExactly(List.of("scancel", "7"));
    assertThat(d.s.save().allocations()).isEmpty();
    assertThat(d.s.pollJobs()).isNull();
  }

  @Test
  void anExtensionAddsTimeToEveryJobReadsTheEndAgainThenAsksForTheNodesForTheTimeLeft() {
    SlurmDriver d = new SlurmDriver();
    grant(d, newAsk("1", 1, null, null, true), "7", 120, "node1");
    d.slurm =
        argv -> argv.getFirst().equals("squeue") ? ok(row("7", "RUNNING", 300, "node1")) : ok("");
    d.nowNs = 10 * S;
    assertThat(d.run(d.s.ask(extend("2", "7", 1, 180L), d.now()))).isEmpty();
    assertThat(d.ran.subList(d.ran.size() - 3, d.ran.size()))
        .containsExactly(
            List.of("scontrol", "update", "JobId=7", "TimeLimit=+3"),
            SlurmCli.squeue(List.of("7")),
            List.of("salloc", "--no-shell", "--job-name=jdvm-abc", "--nodes=1", "--time=5"));
    d.slurm = argv -> ok(shown("8", 300, "node2"));
    assertThat(d.line("2", "salloc: Granted job allocation 8"))
        .containsExactly(new Granted("2", "7", List.of(new NodeGrant("node2", 4)), 300 * S));
    assertThat(d.s.pollJobs()).containsExactly("7", "8");

    // Slurm says no for the second job: refused, nothing more asked for.
    d.slurm =
        argv ->
            argv.contains("JobId=8") ? failed("scontrol: error: Access/permission denied") : ok("");
    int before = d.ran.size();
    List<SchedulerEvent> e = d.run(d.s.ask(extend("3", "7", 0, 60L), d.now()));
    assertThat(((Refused) e.getFirst()).status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
    assertThat(d.ran.subList(before, d.ran.size()))
        .containsExactly(
            List.of("scontrol", "update", "JobId=7", "TimeLimit=+1"),
            List.of("scontrol", "update", "JobId=8", "TimeLimit=+1"));
  }

  @Test
  void anExtensionOfTimeAloneIsGrantedWithNoNodes() {
    SlurmDriver d = new SlurmDriver();
    grant(d, newAsk("1", 1, 60L, null, true), "7", 60, "node1");
    d.slurm =
        argv -> argv.getFirst().equals("squeue") ? ok(row("7", "RUNNING", 120, "node1")) : ok("");
    assertThat(d.run(d.s.ask(extend("2", "7", 0, 60L), d.now())))
        .containsExactly(new Granted("2", "7", List.of(), 120 * S));
    assertThat(d.ran("salloc")).hasSize(1);
  }

  @Test
  void aPollReclaimsJobsEndedOrShrunkFromOutsideAndMovesTheDeadline() {
    SlurmDriver d = new SlurmDriver();
    grant(d, newAsk("1", 2, null, null, true), "7", 60, "node1", "node2");
    d.slurm = argv -> argv.getFirst().equals("squeue") ? ok("") : ok(shown("8", 60, "node3"));
    d.run(d.s.ask(extend("2", "7", 1, null), d.now()));
    d.line("2", "salloc: Granted job allocation 8");
    d.slurm =
        argv -> ok(row("7", "RUNNING", 90, "node1") + "\n" + row("8", "CANCELLED", 60, "node3"));
    assertThat(d.poll())
        .containsExactly(
            new Reclaimed("7", List.of("node2"), false),
            new Reclaimed("7", List.of("node3"), false));
    assertThat(d.s.save().allocations().getFirst().deadlineNs()).isEqualTo(90 * S);
    d.slurm = argv -> ok(row("7", "TIMEOUT", 90, "node1"));
    assertThat(d.poll()).containsExactly(new Reclaimed("7", List.of("node1"), true));
    assertThat(d.logs.getLast()).contains("job 7 ended outside the DVM (TIMEOUT)");
  }

  @Test
  void aFailingPollIsLoggedOnceAndChangesNothing() {
    SlurmDriver d = new SlurmDriver();
    grant(d, newAsk("1", 1, null, null, true), "7", 60, "node1");
    d.slurm = argv -> failed("squeue: error: Unable to contact slurm controller");
    assertThat(d.poll()).isEmpty();
    assertThat(d.poll()).isEmpty();
    assertThat(d.logs).hasSize(1).first().asString().startsWith("WARNING Slurm squeue failed");
    assertThat(d.s.save().allocations()).hasSize(1);
  }

  private static SlurmRecovery.Saved journaled() {
    return new SlurmRecovery.Saved(
        "abc",
        List.of(
            new SlurmRecovery.Held(
                "11", List.of(new SlurmRecovery.Job("11", List.of("node1"))), 50 * S, 10L, true),
            new SlurmRecovery.Held(
                "12",
                List.of(new SlurmRecovery.Job("12", List.of("node2"))),
                100 * S,
                null,
                false)),
        List.of(
            new SlurmRecovery.Waiting(newAsk("5", 1, null, null, false), "13"),
            new SlurmRecovery.Waiting(newAsk("6", 1, null, null, false), "16")));
  }

  @Test
  void recoveryAdoptsGrantsReclaimsAndCancelsByWhatSlurmSaysAndNothingIsDueBeforeIt() {
    SlurmDriver d = new SlurmDriver();
    d.s.restore(journaled(), List.of());
    assertThat(d.s.nextDeadlineNs())
        .as("nothing due before Slurm is heard")
        .isEqualTo(Long.MAX_VALUE);
    assertThat(d.s.pollJobs()).isNull();
    String squeue =
        String.join(
            "\n",
            row("11", "RUNNING", 50, "node1"),
            row("13", "PENDING", 50, ""),
            row("14", "RUNNING", 50, "node4"),
            row("16", "RUNNING", 50, "node3"));
    d.slurm = argv -> ok(shown("16", 50, "node3"));
    SlurmRecovering.Result r =
        d.s.recover(
            ok(squeue), Set.of("5", "6"), Map.of("11", List.of("node1")), Set.of(), d.now());
    assertThat(r.counts()).isEqualTo(new SlurmSchedulerPort.Recovered(1, 1, 1, 1, 1));
    assertThat(d.run(r.effects()))
        .containsExactly(
            new Granted("6", "16", List.of(new NodeGrant("node3", 4)), 50 * S),
            new Reclaimed("12", List.of("node2"), true),
            new Warning("11", 50));
    assertThat(d.ran("scancel"))
        .containsExactly(List.of("scancel", "14"), List.of("scancel", "12"));
    assertThat(d.s.save().allocations())
        .extracting(SlurmRecovery.Held::id)
        .containsExactly("11", "16");
    assertThat(d.s.nextDeadlineNs()).isEqualTo(50 * S);
    assertThat(d.run(d.s.ask(newAsk("6", 1, null, null, false), d.now()))).as("answered").isEmpty();
    assertThat(d.run(d.s.ask(newAsk("5", 1, null, null, false), d.now())))
        .as("still queued")
        .isEmpty();
    assertThat(d.ran("salloc")).isEmpty();
  }

  @Test
  void withoutAnAnswerFromSlurmAtRecoveryEverythingIsKeptAndNothingFallsDueUntilAPollHearsIt() {
    SlurmDriver d = new SlurmDriver();
    d.s.restore(journaled(), List.of());
    SlurmRecovering.Result r =
        d.s.recover(
            failed("squeue: error: Unable to contact slurm controller"),
            Set.of("5"),
            Map.of(),
            Set.of("11"),
            d.now());
    assertThat(r.counts()).isEqualTo(new SlurmSchedulerPort.Recovered(2, 0, 1, 0, 0));
    assertThat(d.run(r.effects())).isEmpty();
    assertThat(d.ran).isEmpty();
    assertThat(d.s.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    assertThat(d.s.pollJobs()).containsExactly("11", "12", "13");
    d.slurm =
        argv ->
            ok(
                String.join(
                    "\n",
                    row("11", "RUNNING", 50, "node1"),
                    row("12", "RUNNING", 100, "node2"),
                    row("13", "PENDING", 0, "")));
    assertThat(d.poll()).isEmpty();
    assertThat(d.s.nextDeadlineNs()).isEqualTo(50 * S);
  }

  @Test
  void anAnswerGivenBeforeTheRestartIsGivenAgainAndCloseGivesEveryJobBack() {
    SlurmDriver d = new SlurmDriver();
    Refused old = new Refused("4", PmixStatus.ERR_OUT_OF_RESOURCE, "busy");
    d.s.restore(journaled(), List.of(old));
    d.run(d.s.recover(failed("down"), Set.of("5", "6"), Map.of(), Set.of(), d.now()).effects());
    assertThat(d.run(d.s.ask(newAsk("4", 1, null, null, true), d.now()))).containsExactly(old);
    d.run(d.s.ask(newAsk("7", 1, null, null, false), d.now()));
    d.line("7", "salloc: Pending job allocation 20");
    d.run(d.s.close());
    assertThat(d.ended).containsExactly(d.sallocs.get("7"));
    assertThat(d.ran("scancel"))
        .containsExactly(List.of("scancel", "20"), List.of("scancel", "13", "16", "11", "12"));
    assertThat(d.s.save().allocations()).isEmpty();
  }
}
