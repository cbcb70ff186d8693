package org.jdvm.cli;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.host.os.Containment;
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
    if (dvmProcess.isPresent() && !awaitEnd(dvmProcess.get(), TimeUnit.SECONDS.toNanos(30))) {
      err.println("jdvm stop: the DVM (pid " + dvmProcess.get().pid() + ") is still stopping");
      return Main.EXIT_FAILURE;
    }
    if (contact.dir() != null) {
      // The DVM ends its local agents; any one still there (its stop cut short) is ended by pid.
      int left = org.jdvm.server.agents.LocalAgentPids.endLeftovers(contact.dir(), 2_000);
      if (left > 0) {
        err.println("jdvm stop: ended " + left + " local agents the DVM left");
      }
    }
    out.println("jdvm: DVM " + contact.name() + " stopped");
    return Main.EXIT_OK;
  }

  /**
   * Whether the DVM's process ended within {@code nanos}. A process that exited but was not reaped
   * has ended too: a detached DVM's parent exits at once, so it belongs to the nearest child
   * subreaper, which may not reap it (a JVM that runs a process host is one), and {@code onExit}
   * would wait for the zombie in vain.
   */
  static boolean awaitEnd(ProcessHandle p, long nanos) {
    long deadline = System.nanoTime() + nanos;
    while (p.isAlive() && !Containment.zombie((int) p.pid())) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try {
        p.onExit().get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // not yet: look again
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
