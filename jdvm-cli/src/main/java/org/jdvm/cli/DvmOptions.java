package org.jdvm.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import picocli.CommandLine.Option;

/**
 * How a command finds the DVM (docs/cli.md "Finding the DVM"): {@code --dvm FILE}, then {@code
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

  /**
   * Connects again as the tool {@code namespace} (after the DVM's controller died and a recovered
   * DVM keeps the namespace for its client: docs/journal.md "Clients").
   */
  public JdvmClient reconnect(String namespace, OutputHandler output) throws PmixException {
    return JdvmClient.connector().dvm(dvm).dir(dir).namespace(namespace).output(output).connect();
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

  /** What a command does once connected; its result is the exit status. */
  @FunctionalInterface
  public interface ClientAction {
    int run(JdvmClient client) throws PmixException, InterruptedException;
  }

  /**
   * Connects as the environment says, runs {@code action}, closes, and turns failures into exit
   * statuses (docs/cli.md): 1 when the DVM cannot be reached, 3 when it refuses (printed as JSON
   * with {@code json}).
   */
  public int run(
      OutputHandler output, boolean json, PrintStream out, PrintStream err, ClientAction action) {
    return run(() -> connect(output), json, out, err, action);
  }

  /**
   * As {@link #run(OutputHandler, boolean, PrintStream, PrintStream, ClientAction)}, as the
   * scheduler.
   */
  public int runAsScheduler(boolean json, PrintStream out, PrintStream err, ClientAction action) {
    return run(this::connectAsScheduler, json, out, err, action);
  }

  private interface Connect {
    JdvmClient open() throws PmixException;
  }

  private static int run(
      Connect connect, boolean json, PrintStream out, PrintStream err, ClientAction action) {
    JdvmClient client;
    try {
      client = connect.open();
    } catch (PmixException e) {
      // Not reaching the DVM is 1; a DVM that answered the handshake with a no is a refusal (3).
      return Outcomes.isUnreachable(e)
          ? Outcomes.unreachable(e, err)
          : Outcomes.failed(e, json, out, err);
    }
    try (client) {
      return action.run(client);
    } catch (PmixException e) {
      return Outcomes.failed(e, json, out, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.EXIT_FAILURE;
    }
  }

  /** The directory to use for a new DVM. */
  public Path dirOrDefault() {
    return dir != null ? dir : org.jdvm.client.Contact.defaultDir();
  }
}
