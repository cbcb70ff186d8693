package org.jdvm.scheduler.slurm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * A running {@code salloc --no-shell}: its stderr read line by line on a virtual thread of its own,
 * so the port's thread never waits for Slurm's queue, and its end.
 */
final class SallocProcess {
  /** The most lines of salloc's stderr read, and the longest line kept. */
  private static final int MAX_LINES = 1000;

  private static final int MAX_LINE = 500;

  /** How long an ended salloc has to exit on SIGTERM before it is killed. */
  private static final long SALLOC_GRACE_S = 5;

  private final Process process;

  private SallocProcess(Process process) {
    this.process = process;
  }

  /** Starts {@code argv}, with nothing on its stdin. */
  static SallocProcess start(SlurmCommands commands, List<String> argv) throws IOException {
    Process p = commands.start(argv);
    p.getOutputStream().close();
    return new SallocProcess(p);
  }

  /**
   * On a virtual thread named after the ask: hands each line of salloc's stderr to {@code line},
   * bounded, then its exit status to {@code exit}.
   */
  void read(String askId, Consumer<String> line, IntConsumer exit) {
    Thread.ofVirtual().name("jdvm-salloc-" + askId).start(() -> readAll(line, exit));
  }

  private void readAll(Consumer<String> line, IntConsumer exit) {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String l;
      int lines = 0;
      while ((l = r.readLine()) != null && lines++ < MAX_LINES) {
        line.accept(l.length() > MAX_LINE ? l.substring(0, MAX_LINE) : l);
      }
    } catch (IOException e) {
      // salloc ended or was ended
    }
    int status;
    try {
      process.getInputStream().close();
      status = process.waitFor();
    } catch (InterruptedException | IOException e) {
      status = -1;
    }
    exit.accept(status);
  }

  /**
   * Ends a salloc the port no longer needs: SIGTERM, and SIGKILL if it still runs after {@link
   * #SALLOC_GRACE_S} seconds, so no salloc outlives its ask whatever state Slurm left it in.
   */
  void end() {
    process.destroy();
    process
        .onExit()
        .completeOnTimeout(process, SALLOC_GRACE_S, TimeUnit.SECONDS)
        .thenAccept(
            s -> {
              if (s.isAlive()) {
                s.destroyForcibly();
              }
            });
  }
}
