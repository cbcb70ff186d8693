package org.jdvm.cli;

import java.nio.file.Path;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import picocli.CommandLine.Option;

/**
 * How a command finds the DVM (docs/cli.md, "Finding the DVM"): {@code --dvm FILE}, then {@code
 * JDVM_URI}, then the contact file in {@code --dir} (default {@code ~/.jdvm}). Inside a process
 * jdvm launched, the command acts as that process's job; elsewhere as a tool.
 */
public final class DvmOptions {
  @Option(
      names = "--dvm",
      paramLabel = "FILE",
      description = "The DVM's contact file (or PMIx URI). Default: $JDVM_URI, then DIR/dvm.json.")
  String dvm;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "The DVM's directory (default ~/.jdvm).")
  Path dir;

  /** Connects as the environment says (a launched process's job, else a tool). */
  public JdvmClient connect(OutputHandler output) throws PmixException {
    return JdvmClient.connector().dvm(dvm).dir(dir).output(output).connect();
  }

  /** Connects as the scheduler, with the credential in the DVM's directory. */
  public JdvmClient connectAsScheduler() throws PmixException {
    return JdvmClient.connector()
        .dvm(dvm)
        .dir(dir)
        .role(org.jdvm.client.Role.SCHEDULER)
        .output(OutputHandler.STDIO)
        .connect();
  }

  /** The directory to use for a new DVM. */
  public Path dirOrDefault() {
    return dir != null ? dir : org.jdvm.client.Contact.defaultDir();
  }
}
