package org.jdvm.cli;

import picocli.CommandLine.Option;

/** The options of {@code jdvm top} (docs/cli.md "jdvm top"). */
final class TopOptions {
  @Option(
      names = "--once",
      description = "Print one frame and exit (no terminal needed): for scripts and tests.")
  boolean once;
}
