package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code jdvm ARGS} run in a JVM of its own from the test's class path, with
 * the launcher's start-up flag (C1 only), for tests that need a CLI or a DVM as a separate process:
 * to SIGKILL it, to send it a signal, or to read its exit status.
 */
final class ChildJdvm {
  private ChildJdvm() {}

  /** A mutable list, so a caller may add arguments. */
  static List<String> command(String... args) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
