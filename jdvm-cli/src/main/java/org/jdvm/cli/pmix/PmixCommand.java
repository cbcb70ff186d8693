package org.jdvm.cli.pmix;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code jdvm pmix}: the wire codec as a debugging tool. {@code encode} turns the JSON form of a
 * value into the bytes of one {@code PMIx_Data_pack} call; {@code decode} turns such bytes, from a
 * capture say, back into JSON. The JSON form is the one the golden vectors of pmix-wire.md §12.2
 * use (jdvm-pmix's test resource {@code wire/vectors.json}), so the tool's output can be checked
 * against the real library's.
 */
@Command(
    mixinStandardHelpOptions = true,
    description = "Encode and decode PMIx wire data (bfrops v41/v61), as libpmix packs it.",
    subcommands = {PmixEncodeCommand.class, PmixDecodeCommand.class, PmixDemoCommand.class})
public final class PmixCommand implements Runnable {
  /**
   * Exit status: success; the value of the CLI's {@code Main.EXIT_OK} (docs/cli.md), written here
   * so that the pmix tools do not reach back into the command that holds them ({@code
   * PmixCommandTest} checks the two agree).
   */
  public static final int EXIT_OK = 0;

  /** Exit status: the codec refused the input; the value of {@code Main.EXIT_REFUSED}. */
  public static final int EXIT_REFUSED = 3;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
