package org.jdvm.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a local program to its end, bounded in time, and always reaped: how jdvm's tools and tests
 * build and query the C and MPI programs that talk to a DVM ({@code gcc}, {@code mpicc}, {@code
 * pkg-config}, {@code mpirun}).
 */
public final class LocalCommand {
  private LocalCommand() {}

  /**
   * The command's output (standard error merged in), or {@code null} when it could not start,
   * failed, or ran past {@code timeoutSeconds}; in every case the process has ended on return.
   */
  public static String output(List<String> cmd, long timeoutSeconds) throws InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return null;
    }
    try {
      byte[] bytes = p.getInputStream().readAllBytes();
      return p.waitFor(timeoutSeconds, TimeUnit.SECONDS) && p.exitValue() == 0
          ? new String(bytes, StandardCharsets.UTF_8)
          : null;
    } catch (IOException e) {
      return null;
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
