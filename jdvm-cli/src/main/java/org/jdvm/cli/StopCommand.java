package org.jdvm.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import picocli.CommandLine.Command;

/**
 * {@code jdvm stop}: the DVM tears down (spec §8.2.1.9.1 trigger 2) — every session ends, scheduler
 * nodes go back, every process is ended — and exits. Waits until it has.
 */
@Command(description = "Stop the DVM and everything it runs.", mixinStandardHelpOptions = true)
public final class StopCommand extends DvmCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return connected(OutputHandler.DISCARD, false, this::stop);
  }

  private int stop(JdvmClient client) throws PmixException {
    Contact contact = client.contact();
    Optional<ProcessHandle> dvmProcess =
        Optional.ofNullable(contact.pid()).flatMap(ProcessHandle::of);
    client.stopDvm();
    if (dvmProcess.isPresent()) {
      try {
        dvmProcess.get().onExit().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        err.println("jdvm stop: the DVM (pid " + dvmProcess.get().pid() + ") is still stopping");
        return Main.EXIT_FAILURE;
      }
    }
    out.println("jdvm: DVM " + contact.name() + " stopped");
    return Main.EXIT_OK;
  }
}
