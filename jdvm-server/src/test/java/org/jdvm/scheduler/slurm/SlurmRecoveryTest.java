package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.journal.Entry;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.scheduler.SchedulerNotes;
import org.jdvm.scheduler.slurm.SlurmRecovery.Adopt;
import org.jdvm.scheduler.slurm.SlurmRecovery.AskAgain;
import org.jdvm.scheduler.slurm.SlurmRecovery.Cancel;
import org.jdvm.scheduler.slurm.SlurmRecovery.GrantNow;
import org.jdvm.scheduler.slurm.SlurmRecovery.Held;
import org.jdvm.scheduler.slurm.SlurmRecovery.Job;
import org.jdvm.scheduler.slurm.SlurmRecovery.KeepWaiting;
import org.jdvm.scheduler.slurm.SlurmRecovery.Reclaim;
import org.jdvm.scheduler.slurm.SlurmRecovery.ReclaimUnheld;
import org.jdvm.scheduler.slurm.SlurmRecovery.Saved;
import org.jdvm.scheduler.slurm.SlurmRecovery.Waiting;
import org.jdvm.server.journal.Recovering;
import org.junit.jupiter.api.Test;

/**
 * docs/journal.md "Slurm": what a restarted controller decides about each journaled Slurm job
 * (running, gone, pending, unknown), and how the port carries it out, without a Slurm: the commands
 * are scripted.
 */
class SlurmRecoveryTest {
  private static Ask newAsk(String id) {
    return new Ask(id, Ask.Kind.NEW, null, 1, List.of(), 60L, null, false);
  }

  private static SlurmCli.JobRow row(String id, String state, String... nodes) {
    return new SlurmCli.JobRow(id, state, 4_000_000_000L, List.of(nodes));
  }

  private static Map<String, SlurmCli.JobRow> rows(SlurmCli.JobRow... rows) {
    Map<String, SlurmCli.JobRow> m = new java.util.LinkedHashMap<>();
    for (SlurmCli.JobRow r : rows) {
      m.put(r.id(), r);
    }
    return m;
  }

  @Test
  void eachJournaledJobIsAdoptedReclaimedWaitedForOrCancelledByWhatSlurmSaysOfIt() {
    Saved saved =
        new Saved(
            "abc",
            List.of(
                new Held(
                    "11",
                    List.of(new Job("11", List.of("node1")), new Job("15", List.of("node4"))),
                    null,
                    null,
                    false),
                new Held("12", List.of(new Job("12", List.of("node2"))), null, null, false)),
            List.of(
                new Waiting(newAsk("5"), "13"),
                new Waiting(newAsk("6"), "16"),
                new Waiting(newAsk("7"), "17"),
                new Waiting(newAsk("8"), null),
                new Waiting(newAsk("9"), "19")));
    Map<String, SlurmCli.JobRow> slurm =
        rows(
            row("11", "RUNNING", "node1"),
            row("15", "CANCELLED", "node4"),
            row("13", "PENDING"),
            row("16", "RUNNING", "node3"),
            row("19", "PENDING"),
            row("14", "RUNNING", "node2"),
            row("18", "PENDING"),
            row("20", "COMPLETED", "node2"));
    List<SlurmRecovery.Decision> d =
        SlurmRecovery.decide(
            saved,
            slurm,
            Set.of("5", "6", "7", "8"),
            Map.of("11", List.of("node1"), "3", List.of("node3")));
    assertThat(d)
        .containsExactly(
            new ReclaimUnheld("3", List.of("node3")),
            new Adopt("11", "11"),
            new Reclaim("11", "15", false, "CANCELLED"),
            new Reclaim("12", "12", true, "gone"),
            new KeepWaiting("5", "13"),
            new GrantNow("6", "16"),
            new AskAgain("7"),
            new AskAgain("8"),
            new Cancel("19", "its request 9 no longer waits"),
            new Cancel(
                "14",
                "not in the journal (the controller died between salloc and its journal write)"),
            new Cancel(
                "18",
                "not in the journal (the controller died between salloc and its journal write)"));
  }

  @Test
  void anAllocationWhoseFirstJobEndedIsReclaimedWholeEvenIfAnExtensionStillRuns() {
    Saved saved =
        new Saved(
            "abc",
            List.of(
                new Held(
                    "11",
                    List.of(new Job("11", List.of("node1")), new Job("15", List.of("node4"))),
                    null,
                    null,
                    false)),
            List.of());
    assertThat(SlurmRecovery.decide(saved, rows(row("15", "RUNNING", "node4")), Set.of(), Map.of()))
        .containsExactly(new Reclaim("11", "11", true, "gone"), new Adopt("11", "15"));
  }

  @Test
  void theStateCrossesTheJournalsEncodingUnchanged() {
    Saved saved =
        new Saved(
            "0a1b2c",
            List.of(
                new Held(
                    "11", List.of(new Job("11", List.of("node1", "node2"))), 5_000L, 30L, true)),
            List.of(new Waiting(newAsk("5"), "13"), new Waiting(newAsk("6"), null)));
    SchedulerEvent answer =
        new SchedulerEvent.Granted("4", "11", List.of(new NodeGrant("node1", 4)), 5_000L);
    List<Entry.Note> notes = Recovering.slurmNotes(saved, List.of(answer));
    assertThat(notes.get(0).kind()).isEqualTo(SchedulerNotes.SLURM_SCHEDULER);
    assertThat(RecordCodec.read(new Bytes.In(notes.get(0).value()), Saved.class)).isEqualTo(saved);
    assertThat(notes.get(1).kind()).isEqualTo(SchedulerNotes.SCHEDULER_ANSWER);
    assertThat(notes.get(1).key()).isEqualTo("4");
    assertThat(RecordCodec.read(new Bytes.In(notes.get(1).value()), SchedulerEvent.class))
        .isEqualTo(answer);
  }

  /** Slurm as scripted rows: squeue prints them, scontrol shows a granted one, scancel is noted. */
  private static final class ScriptedSlurm implements SlurmCommands {
    final Map<String, String> squeue = new java.util.concurrent.ConcurrentHashMap<>();
    final List<List<String>> ran = new ArrayList<>();

    @Override
    public synchronized Result run(List<String> argv, long timeoutMs) {
      ran.add(argv);
      return switch (argv.getFirst()) {
        case "squeue" -> new Result(0, String.join("\n", squeue.values()) + "\n", "");
        case "scontrol" -> {
          String id = argv.getLast();
          yield new Result(
              0,
              "JobId="
                  + id
                  + " JobState=RUNNING NodeList=node3 EndTime=4000000000 TimeLimit=00:01:00"
                  + " Nodes=node3 CPU_IDs=0-3 Mem=0",
              "");
        }
        default -> new Result(0, "", "");
      };
    }

    @Override
    public synchronized Process start(List<String> argv) throws IOException {
      ran.add(argv);
      throw new IOException("no salloc here");
    }

    synchronized List<List<String>> ran(String command) {
      return ran.stream().filter(a -> a.getFirst().equals(command)).toList();
    }
  }

  @Test
  void aWarningTheCoreRelayedBeforeTheCrashIsNotSentAgainAndTheExpiryStillComes() throws Exception {
    ScriptedSlurm slurm = new ScriptedSlurm();
    slurm.squeue.put("11", "11|RUNNING|4000000000|1:00|node1");
    long s = 1_000_000_000L;
    long[] now = {0};
    LinkedBlockingQueue<SchedulerEvent> events = new LinkedBlockingQueue<>();
    try (SlurmSchedulerPort port =
        new SlurmSchedulerPort(
            slurm,
            new SlurmSchedulerPort.Config(null, 20, 1000),
            () -> now[0],
            () -> 3_999_999_950_000L + now[0] / 1_000_000)) {
      port.restore(
          new Saved(
              "abc",
              List.of(new Held("11", List.of(new Job("11", List.of("node1"))), 50 * s, 60L, true)),
              List.of()),
          List.of());
      port.start(events::add);
      assertThat(port.recover(Set.of(), Map.of("11", List.of("node1")), Set.of("11")))
          .isEqualTo(new SlurmSchedulerPort.Recovered(1, 0, 0, 0, 0));
      assertThat(events)
          .as("no warning again (recover's events left before it returned)")
          .isEmpty();
      now[0] = 50 * s; // Slurm's EndTime: the next poll re-arms the timer on the moved clock
      SchedulerEvent e = events.poll(10, TimeUnit.SECONDS);
      assertThat(e).isEqualTo(new SchedulerEvent.Reclaimed("11", List.of("node1"), true));
      assertThat(slurm.ran("scancel")).containsExactly(List.of("scancel", "11"));
    }
  }

  @Test
  void aRestartedPortAdoptsRunningJobsReclaimsEndedOnesAndCancelsWhatNobodyJournaled()
      throws Exception {
    ScriptedSlurm slurm = new ScriptedSlurm();
    slurm.squeue.put("11", "11|RUNNING|4000000000|1:00|node1");
    slurm.squeue.put("13", "13|PENDING|4000000000|1:00|");
    slurm.squeue.put("14", "14|RUNNING|4000000000|1:00|node4");
    slurm.squeue.put("16", "16|RUNNING|4000000000|1:00|node3");
    long s = 1_000_000_000L;
    Saved saved =
        new Saved(
            "abc",
            List.of(
                new Held("11", List.of(new Job("11", List.of("node1"))), 50 * s, 10L, true),
                new Held("12", List.of(new Job("12", List.of("node2"))), 100 * s, null, false)),
            List.of(new Waiting(newAsk("5"), "13"), new Waiting(newAsk("6"), "16")));
    SchedulerEvent oldAnswer =
        new SchedulerEvent.Refused("4", org.jdvm.pmix.PmixStatus.ERR_OUT_OF_RESOURCE, "busy");
    List<Saved> journaled = new ArrayList<>();
    LinkedBlockingQueue<SchedulerEvent> events = new LinkedBlockingQueue<>();
    try (SlurmSchedulerPort port =
        new SlurmSchedulerPort(
            slurm,
            new SlurmSchedulerPort.Config(null, 20, 1000),
            () -> 0L,
            () -> 3_999_999_950_000L)) {
      port.restore(saved, List.of(oldAnswer));
      port.persistWith((state, answers) -> journaled.add(state));
      port.start(events::add);
      SlurmSchedulerPort.Recovered r =
          port.recover(Set.of("4", "5", "6"), Map.of("11", List.of("node1")), Set.of());
      assertThat(r).isEqualTo(new SlurmSchedulerPort.Recovered(1, 1, 1, 1, 1));
      assertThat(slurm.ran("squeue").getFirst()).contains("--name=jdvm-abc");
      assertThat(slurm.ran("scancel"))
          .as("the job nobody journaled, and the ended allocation's (a no-op in Slurm)")
          .containsExactly(List.of("scancel", "14"), List.of("scancel", "12"));
      List<SchedulerEvent> seen = new ArrayList<>();
      events.drainTo(seen);
      assertThat(seen)
          .containsExactly(
              new SchedulerEvent.Granted("6", "16", List.of(new NodeGrant("node3", 4)), 50 * s),
              new SchedulerEvent.Reclaimed("12", List.of("node2"), true),
              new SchedulerEvent.Warning("11", 50));
      assertThat(port.jobOf("node1")).contains("11");
      assertThat(port.jobOf("node3")).contains("16");
      assertThat(port.jobOf("node2")).isEmpty();
      Saved now = journaled.getLast();
      assertThat(now.tag()).isEqualTo("abc");
      assertThat(now.allocations()).extracting(Held::id).containsExactly("11", "16");
      assertThat(now.waiting()).containsExactly(new Waiting(newAsk("5"), "13"));

      // Asked again: the answer it had; nothing for the one still queued in Slurm, nor for the
      // one the recovery just answered.
      port.ask(newAsk("6"));
      port.ask(new Ask("4", Ask.Kind.NEW, null, 1, List.of(), 60L, null, true));
      port.ask(newAsk("5"));
      assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo(oldAnswer);
      assertThat(slurm.ran("salloc")).isEmpty();

      // Slurm grants the queued job: a poll gives it to its request.
      slurm.squeue.put("13", "13|RUNNING|4000000000|1:00|node3");
      assertThat(events.poll(10, TimeUnit.SECONDS))
          .isEqualTo(
              new SchedulerEvent.Granted("5", "13", List.of(new NodeGrant("node3", 4)), 50 * s));
    }
  }
}
