package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.jdvm.server.agents.SrunAgentStarter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Slurm command lines and the reading of Slurm's output, without a Slurm. */
class SlurmCliTest {
  // scontrol --details --oneliner show job, as Slurm 22.05 printed it (SLURM_TIME_FORMAT=%s).
  private static final String SHOW_JOB =
      "JobId=3 JobName=jdvm UserId=root(0) JobState=RUNNING Reason=None TimeLimit=00:02:00"
          + " StartTime=1795549066 EndTime=1795549186 NodeList=node[3-4] BatchHost=node3"
          + " NumNodes=2 NumCPUs=6 NumTasks=2 CPUs/Task=1 TRES=cpu=6,node=2"
          + "   Nodes=node3 CPU_IDs=0-3 Mem=0 GRES=   Nodes=node4 CPU_IDs=0,2 Mem=0 GRES="
          + " MinCPUsNode=1 Features=(null) WorkDir=/tmp";

  @Test
  void aGrantedJobsNodesSlotsAndEndAreReadFromScontrol() {
    SlurmCli.GrantedJob j = SlurmCli.parseShowJob(SHOW_JOB);
    assertThat(j.id()).isEqualTo("3");
    assertThat(j.endEpochSeconds()).isEqualTo(1795549186L);
    assertThat(j.nodes()).containsExactly(new NodeGrant("node3", 4), new NodeGrant("node4", 2));
    assertThat(
            SlurmCli.parseShowJob(SHOW_JOB.replace("TimeLimit=00:02:00", "TimeLimit=UNLIMITED"))
                .endEpochSeconds())
        .as("no limit, no deadline")
        .isNull();
    assertThat(
            SlurmCli.parseShowJob(SHOW_JOB.replaceAll(" +Nodes=node[34] CPU_IDs=[^ ]+", ""))
                .nodes())
        .as("without details, NumCPUs spread evenly")
        .containsExactly(new NodeGrant("node3", 3), new NodeGrant("node4", 3));
  }

  @Test
  void squeueRowsAreReadAndMalformedLinesSkipped() {
    var rows =
        SlurmCli.parseSqueue(
            "1|RUNNING|1795549126|1:00|node[1-2]\n"
                + "9|FAILED|1795549286|1:00|\n"
                + "garbage\n"
                + "x|RUNNING|1|1:00|n1\n"
                + "4|RUNNING|Unknown|UNLIMITED|node4\n");
    assertThat(rows.keySet()).containsExactly("1", "9", "4");
    assertThat(rows.get("1"))
        .isEqualTo(new SlurmCli.JobRow("1", "RUNNING", 1795549126L, List.of("node1", "node2")));
    assertThat(rows.get("9").nodes()).isEmpty();
    assertThat(rows.get("4").endEpochSeconds()).isNull();
  }

  @Test
  void sallocAsksByCountOrExactlyTheNamedNodesInWholeMinutes() {
    assertThat(SlurmCli.salloc(2, List.of(), SlurmCli.minutes(61), false, null))
        .containsExactly("salloc", "--no-shell", "--job-name=jdvm", "--nodes=2", "--time=2");
    assertThat(SlurmCli.salloc(0, List.of("node1", "node3"), null, true, "debug"))
        .containsExactly(
            "salloc",
            "--no-shell",
            "--job-name=jdvm",
            "--nodes=2",
            "--nodelist=node1,node3",
            "--immediate",
            "--partition=debug");
    assertThatThrownBy(() -> SlurmCli.minutes(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "salloc: error: Job submit/allocate failed: Invalid node name specified; -46",
        "salloc: error: Unable to allocate resources: Requested nodes are busy; -29",
        "salloc: Requested partition configuration not available now; -29",
        "salloc: error: Job submit/allocate failed: Invalid partition name specified; -46",
        "salloc: error: Unable to contact slurm controller (connect failure); -25",
        "salloc: error: Job submit/allocate failed: Access/permission denied; -23",
        "salloc: error: Job submit/allocate failed: Requested time limit is invalid; -27",
        "salloc: error: something new; -1",
      })
  void slurmsFailuresMapToPmixStatusesWithOneLine(String line, int status) {
    SlurmCli.Failure f = SlurmCli.failure("did not grant the nodes", line);
    assertThat(f.status()).isEqualTo(status);
    assertThat(f.reason()).startsWith("Slurm did not grant the nodes: ").doesNotContain("salloc:");
  }

  /** Every command the port would run, recorded; none is run. */
  private static final class Recorder implements SlurmCommands {
    final List<List<String>> argvs = new ArrayList<>();

    @Override
    public synchronized Result run(List<String> argv, long timeoutMs) {
      argvs.add(argv);
      return new Result(1, "", "not run");
    }

    @Override
    public synchronized Process start(List<String> argv) throws IOException {
      argvs.add(argv);
      throw new IOException("not run");
    }
  }

  @Test
  void hostileNodeNamesAndAllocationIdsNeverBecomeACommand() throws Exception {
    Recorder recorder = new Recorder();
    LinkedBlockingQueue<SchedulerEvent> events = new LinkedBlockingQueue<>();
    try (SlurmSchedulerPort port =
        new SlurmSchedulerPort(
            recorder,
            new SlurmSchedulerPort.Config(null, 60_000, 1000),
            System::nanoTime,
            System::currentTimeMillis)) {
      port.start(events::add);
      List<String> hostile =
          List.of(
              "n1;id",
              "$(id)",
              "`id`",
              "n[1-9]",
              "n1,n2",
              "-N99",
              "n 1",
              "n1\nid",
              "n1|id",
              "n1&&id",
              "../n1",
              "n1>f",
              "",
              "x".repeat(200));
      for (String name : hostile) {
        port.ask(new Ask("1", Ask.Kind.NEW, null, 0, List.of(name), 60L, null, true));
        SchedulerEvent e = events.poll(10, TimeUnit.SECONDS);
        assertThat(e)
            .as(name)
            .isInstanceOfSatisfying(
                SchedulerEvent.Refused.class,
                r -> {
                  assertThat(r.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
                  assertThat(r.reason()).doesNotContain("\n");
                });
      }
      port.ask(new Ask("2", Ask.Kind.EXTEND, "1;id", 1, List.of(), null, null, true));
      assertThat(events.poll(10, TimeUnit.SECONDS))
          .isInstanceOfSatisfying(
              SchedulerEvent.Refused.class,
              r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_NOT_FOUND));
      port.release("1;id", List.of("n1;id"));
      port.end("$(id)");
      port.cancel("2;id");
      port.ask(new Ask("3", Ask.Kind.NEW, null, 1, List.of(), 0L, null, true));
      assertThat(events.poll(10, TimeUnit.SECONDS))
          .as("a time limit of no time is no Slurm time string")
          .isInstanceOfSatisfying(
              SchedulerEvent.Refused.class,
              r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
    }
    assertThat(recorder.argvs).as("nothing was run, not even scancel").isEmpty();
    assertThatThrownBy(() -> SlurmCli.scancel(List.of("12 13")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SlurmCli.shrink("12", List.of("n1,n2")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SrunAgentStarter.argv("12", "n1", List.of("-o", "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
