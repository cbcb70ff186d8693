package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.bench.dvm.DvmBench;
import org.jdvm.client.Contact;
import org.jdvm.host.JobDirectories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A bench whose measure fails stops the DVM it started before the failure reaches its caller (the
 * signal case, a bench ended by SIGTERM, is {@link BenchRunTest}'s). The bench runs in this JVM as
 * {@code jdvm bench} runs it, with its DVM detached in a process of its own, and a last measure
 * (DvmBench's seam) that notes the DVM's pid and throws.
 */
class BenchStopsItsDvmTest {
  private static final Pattern KEPT = Pattern.compile("are kept in (\\S+)");

  private final List<Long> dvmPids = new ArrayList<>();
  private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

  @AfterEach
  void endWhatTheBenchLeft() {
    Thread.interrupted();
    dvmPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    // A failed bench keeps its scratch directory for its logs, and says where.
    Matcher m = KEPT.matcher(progress.toString(StandardCharsets.UTF_8));
    if (m.find()) {
      JobDirectories.removeTree(Path.of(m.group(1)));
    }
  }

  @Test
  void aMeasureThatThrowsStopsTheDvmTheBenchStarted() {
    benchFailsAndItsDvmHasEnded(BenchCommand.jdvmInChildJvm(), false);
    assertThat(progress.toString(StandardCharsets.UTF_8)).doesNotContain("killing");
  }

  /**
   * A measure that fails with its thread's interrupt flag set (as one that was interrupted and says
   * so): the stop, a child JVM the bench waits for, still runs to its end.
   */
  @Test
  void aMeasureThatFailsInterruptedStillStopsTheDvm() {
    benchFailsAndItsDvmHasEnded(BenchCommand.jdvmInChildJvm(), true);
    assertThat(Thread.interrupted()).as("the interrupt is put back").isTrue();
  }

  /** When {@code jdvm stop} fails, the bench kills its DVM, and says so. */
  @Test
  void aStopThatFailsStillEndsTheDvm() {
    List<String> stopFails = new ArrayList<>(List.of("/bin/sh", "-c", STOP_EXITS_1));
    stopFails.addAll(BenchCommand.jdvmInChildJvm());
    benchFailsAndItsDvmHasEnded(stopFails, false);
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("'jdvm stop' exited 1; killing the bench DVM (pid " + dvmPids.getFirst() + ")");
  }

  /** A {@code jdvm} whose {@code stop} exits 1 and does nothing: {@code sh -c} with java as $0. */
  private static final String STOP_EXITS_1 =
      "for a; do [ \"$a\" = stop ] && exit 1; done; exec \"$0\" \"$@\"";

  /**
   * A bench with no measure of its own (the MPI section with no runs) whose last measure, the seam,
   * throws: the exception reaches the caller and the DVM it ran against has ended by then.
   */
  private void benchFailsAndItsDvmHasEnded(List<String> jdvm, boolean interrupted) {
    DvmBench.Settings settings =
        new DvmBench.Settings(
            1, 0, 1, 1, 0, 1, 0, 0, 0, List.of(2), DvmBench.Settings.MPI, "interval", false, jdvm);
    IllegalStateException failure = new IllegalStateException("a measure failed");
    List<Path> contacts = new ArrayList<>();

    assertThatThrownBy(
            () ->
                DvmBench.run(
                    settings,
                    new PrintStream(progress, true, StandardCharsets.UTF_8),
                    bench -> {
                      dvmPids.add(bench.pid());
                      contacts.add(bench.dir().resolve(Contact.CONTACT_FILE));
                      assertThat(ProcessHandle.of(bench.pid()).map(ProcessHandle::isAlive))
                          .as("the bench DVM runs while it is measured")
                          .contains(true);
                      if (interrupted) {
                        Thread.currentThread().interrupt();
                      }
                      throw failure;
                    }))
        .isSameAs(failure);

    assertThat(dvmPids).as("the failing measure ran against a detached DVM").hasSize(1);
    long pid = dvmPids.getFirst();
    assertThat(ProcessHandle.of(pid).map(h -> StopCommand.awaitEnd(h, 0)).orElse(true))
        .as("the bench DVM (pid " + pid + ") ended before the failure; bench said: " + progress)
        .isTrue();
    assertThat(Files.isDirectory(contacts.getFirst().getParent()))
        .as("the failed bench's directory is kept for its logs")
        .isTrue();
  }
}
