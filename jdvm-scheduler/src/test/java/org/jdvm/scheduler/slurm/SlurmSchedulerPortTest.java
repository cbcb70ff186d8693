package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jdvm.host.Await;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.NodeGrant;
import org.jdvm.scheduler.SchedulerEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm scheduler port against a real Slurm 22.05 (four nodes on this machine, {@link
 * SlurmCluster}). Slurm's time limits are whole minutes and its own enforcement ticks every 30 s,
 * so the time tests shift the port's wall clock towards the job's EndTime instead of waiting: the
 * EndTime is still Slurm's, read from Slurm.
 */
class SlurmSchedulerPortTest {
  private static SlurmCluster cluster;
  private final LinkedBlockingQueue<SchedulerEvent> events = new LinkedBlockingQueue<>();
  private SlurmSchedulerPort port;

  @BeforeAll
  static void up() throws Exception {
    cluster = SlurmCluster.upOrSkip();
  }

  @AfterAll
  static void down() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void endJobs() throws Exception {
    if (port != null) {
      port.close();
    }
    cluster.cancelAll();
  }

  private SlurmSchedulerPort port(LongSupplier wallMs) {
    port =
        new SlurmSchedulerPort(
            SlurmSchedulerPort.systemCommands(cluster.env()),
            new SlurmSchedulerPort.Config(null, 200, 15_000),
            System::nanoTime,
            wallMs);
    port.start(events::add);
    return port;
  }

  private SchedulerEvent next() throws Exception {
    SchedulerEvent e = events.poll(30, TimeUnit.SECONDS);
    if (e == null) {
      throw new AssertionError(
          "no event within 30 s; Slurm's jobs:\n"
              + cluster.run("squeue", "-t", "all", "-o", "%i %T %r %N").out());
    }
    return e;
  }

  private SchedulerEvent.Granted granted() throws Exception {
    return (SchedulerEvent.Granted)
        assertThat(next()).isInstanceOf(SchedulerEvent.Granted.class).actual();
  }

  private static Ask ask(
      String id, int count, List<String> names, Long limit, Long warn, boolean required) {
    return new Ask(id, Ask.Kind.NEW, null, count, names, limit, warn, required);
  }

  /** Every job Slurm knows of, in any state (squeue's order varies). */
  private static Set<String> jobIds() throws Exception {
    return Set.copyOf(cluster.run("squeue", "-h", "-t", "all", "-o", "%i").out().lines().toList());
  }

  private String squeue(String job) throws Exception {
    return cluster.run("squeue", "-h", "-t", "all", "-j", job, "-o", "%T %N").out().strip();
  }

  @Test
  void asksByCountAndByNameBecomeSlurmJobsWithSlurmsNodesSlotsAndEndTime() throws Exception {
    port(System::currentTimeMillis);
    port.ask(ask("1", 2, List.of(), 120L, null, false));
    SchedulerEvent.Granted byCount = granted();
    assertThat(byCount.nodes()).hasSize(2).allMatch(n -> n.slots() == 4);
    long leftS = (byCount.deadlineNs() - System.nanoTime()) / 1_000_000_000L;
    assertThat(leftS).as("Slurm's EndTime: 2 minutes from the grant").isBetween(100L, 121L);
    String[] row = squeue(byCount.allocation()).split(" ");
    assertThat(row[0]).isEqualTo("RUNNING");
    assertThat(Hostlist.expand(row[1]))
        .as("the granted nodes are the Slurm job's")
        .isEqualTo(byCount.nodes().stream().map(NodeGrant::name).toList());

    port.ask(ask("2", 0, List.of("node4"), 60L, null, true));
    SchedulerEvent.Granted byName = granted();
    assertThat(byName.nodes()).containsExactly(new NodeGrant("node4", 4));
    assertThat(port.jobOf("node4")).contains(byName.allocation());

    port.ask(new Ask("3", Ask.Kind.EXTEND, byCount.allocation(), 1, List.of(), null, null, true));
    SchedulerEvent.Granted extension = granted();
    assertThat(extension.allocation()).isEqualTo(byCount.allocation());
    String extensionJob = port.jobOf(extension.nodes().getFirst().name()).orElseThrow();
    assertThat(extensionJob).isNotEqualTo(byCount.allocation());
    assertThat(squeue(extensionJob)).startsWith("RUNNING");

    port.end(byCount.allocation());
    Await.until(() -> gone(byCount.allocation()) && gone(extensionJob), "both jobs cancelled");
  }

  private boolean gone(String job) {
    try {
      return !squeue(job).startsWith("RUNNING");
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void extendingTheTimeMovesSlurmsEndTimeAndTheDeadline() throws Exception {
    port(System::currentTimeMillis);
    port.ask(ask("1", 1, List.of(), 60L, null, true));
    SchedulerEvent.Granted g = granted();
    port.ask(new Ask("2", Ask.Kind.EXTEND, g.allocation(), 0, List.of(), 120L, null, true));
    SchedulerEvent.Granted more = granted();
    assertThat(more.nodes()).isEmpty();
    assertThat((more.deadlineNs() - g.deadlineNs()) / 1_000_000_000L).isBetween(119L, 121L);
    assertThat(cluster.run("squeue", "-h", "-j", g.allocation(), "-o", "%l").out().strip())
        .isEqualTo("3:00");
  }

  @Test
  void releaseShrinksTheSlurmJobAndReleasingItsLastNodeCancelsIt() throws Exception {
    port(System::currentTimeMillis);
    port.ask(ask("1", 3, List.of(), 60L, null, true));
    SchedulerEvent.Granted g = granted();
    List<String> names = g.nodes().stream().map(NodeGrant::name).toList();
    port.release(g.allocation(), names.subList(0, 2));
    Await.until(
        () -> {
          try {
            return squeue(g.allocation()).equals("RUNNING " + names.get(2));
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        },
        "the job shrunk to " + names.get(2));
    port.release(g.allocation(), names.subList(2, 3));
    Await.until(() -> gone(g.allocation()), "the job cancelled");
    assertThat(events).as("nothing reclaimed: the DVM gave the nodes back itself").isEmpty();
  }

  @Test
  void aQueuedAskIsCancelledInSlurmAndARequiredOneIsRefused() throws Exception {
    port(System::currentTimeMillis);
    port.ask(ask("1", 4, List.of(), 60L, null, true));
    granted();
    port.ask(ask("2", 1, List.of(), 60L, null, true));
    assertThat(next())
        .isInstanceOfSatisfying(
            SchedulerEvent.Refused.class,
            r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE));
    port.ask(ask("3", 1, List.of(), 60L, null, false));
    assertThat(next()).isEqualTo(new SchedulerEvent.Queued("3", 1));
    String pending = cluster.run("squeue", "-h", "-t", "PENDING", "-o", "%i").out().strip();
    assertThat(pending).as("one job waits in Slurm").matches("[0-9]+");
    port.cancel("3");
    assertThat(next()).isEqualTo(new SchedulerEvent.Cancelled("3"));
    Await.until(
        () -> {
          try {
            return squeue(pending).startsWith("CANCELLED");
          } catch (Exception e) {
            throw new AssertionError(e);
          }
        },
        "the pending job cancelled in Slurm");
  }

  @Test
  void requestsSlurmCanNeverServeAreRefusedNotLeftPending() throws Exception {
    port(System::currentTimeMillis);
    port.ask(ask("1", 5, List.of(), 60L, null, false));
    assertThat(next())
        .isInstanceOfSatisfying(
            SchedulerEvent.Refused.class,
            r -> {
              assertThat(r.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
              assertThat(r.reason())
                  .isEqualTo(
                      "Slurm can never grant the nodes: Requested partition configuration"
                          + " not available now");
            });
    port.ask(ask("2", 0, List.of("node9"), 60L, null, false));
    assertThat(next())
        .isInstanceOfSatisfying(
            SchedulerEvent.Refused.class,
            r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_NOT_FOUND));
    port.ask(new Ask("3", Ask.Kind.LEND, "7", 0, List.of("node1"), null, null, true));
    assertThat(next())
        .isInstanceOfSatisfying(
            SchedulerEvent.Refused.class,
            r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED));
    assertThat(cluster.run("squeue", "-h", "-t", "PENDING,RUNNING", "-o", "%i").out()).isBlank();
  }

  @Test
  void slurmsEndTimeDrivesTheWarningAndTheReclaimAtExpiry() throws Exception {
    // Slurm's shortest limit is a minute: the port's wall clock runs 57 s ahead, so Slurm's
    // EndTime is 3 s away for it.
    port(() -> System.currentTimeMillis() + 57_000);
    port.ask(ask("1", 1, List.of(), 60L, 2L, true));
    SchedulerEvent.Granted g = granted();
    SchedulerEvent warning = next();
    assertThat(warning)
        .isInstanceOfSatisfying(
            SchedulerEvent.Warning.class,
            w -> {
              assertThat(w.allocation()).isEqualTo(g.allocation());
              assertThat(w.secondsRemaining()).isBetween(1L, 2L);
            });
    assertThat(next())
        .isEqualTo(
            new SchedulerEvent.Reclaimed(
                g.allocation(), List.of(g.nodes().getFirst().name()), true));
    Await.until(() -> gone(g.allocation()), "the expired job cancelled in Slurm");
  }

  @Test
  void aJobCancelledFromOutsideIsReclaimedAsAWhole() throws Exception {
    port(System::currentTimeMillis);
    port.ask(ask("1", 2, List.of(), 60L, null, true));
    SchedulerEvent.Granted g = granted();
    assertThat(cluster.run("scancel", g.allocation()).exit()).isZero();
    assertThat(next())
        .isEqualTo(
            new SchedulerEvent.Reclaimed(
                g.allocation(), g.nodes().stream().map(NodeGrant::name).toList(), true));
    assertThat(port.jobOf(g.nodes().getFirst().name())).isEmpty();
  }

  @Test
  void hostileNamesAreRefusedBeforeAnythingReachesSlurmOrAShell(@TempDir Path tmp)
      throws Exception {
    port(System::currentTimeMillis);
    Set<String> jobsBefore = jobIds();
    Path marker = tmp.resolve("pwned");
    List<String> hostile =
        List.of(
            "node1;touch " + marker,
            "$(touch " + marker + ")",
            "`touch " + marker + "`",
            "node[1-4]",
            "node1,node2",
            "--uid=0",
            "node1 node2",
            "node1\ntouch");
    int i = 0;
    for (String name : hostile) {
      port.ask(ask("h" + i++, 0, List.of(name), 60L, null, true));
      assertThat(next())
          .as(name)
          .isInstanceOfSatisfying(
              SchedulerEvent.Refused.class,
              r -> assertThat(r.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM));
    }
    assertThat(marker).doesNotExist();
    assertThat(jobIds()).as("no job was ever submitted").isEqualTo(jobsBefore);
  }
}
