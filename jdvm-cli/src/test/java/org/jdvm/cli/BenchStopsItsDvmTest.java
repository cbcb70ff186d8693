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
    dvmPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    // A failed bench keeps its scratch directory for its logs, and says where.
    Matcher m = KEPT.matcher(progress.toString(StandardCharsets.UTF_8));
    if (m.find()) {
      JobDirectories.removeTree(Path.of(m.group(1)));
    }
  }

  @Test
  void aMeasureThatThrowsStopsTheDvmTheBenchStarted() {
    // No measure of its own (the MPI section with no runs): the DVM starts, the seam's runs.
    DvmBench.Settings settings =
        new DvmBench.Settings(
            1,
            0,
            1,
            1,
            0,
            0,
            0,
            0,
            List.of(2),
            DvmBench.Settings.MPI,
            "interval",
            false,
            BenchCommand.jdvmInChildJvm());
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
                      throw failure;
                    }))
        .isSameAs(failure);

    assertThat(dvmPids).as("the failing measure ran against a detached DVM").hasSize(1);
    long pid = dvmPids.getFirst();
    assertThat(ProcessHandle.of(pid).map(h -> StopCommand.awaitEnd(h, 0)).orElse(true))
        .as("the bench DVM (pid " + pid + ") ended before the failure; bench said: " + progress)
        .isTrue();
    assertThat(contacts.getFirst()).as("its contact file is removed").doesNotExist();
    assertThat(Files.isDirectory(contacts.getFirst().getParent()))
        .as("the failed bench's directory is kept for its logs")
        .isTrue();
  }
}
