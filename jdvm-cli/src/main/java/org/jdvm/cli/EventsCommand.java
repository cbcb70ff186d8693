package org.jdvm.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.JdvmProtocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jdvm events}: the DVM's state changes, from the operator feed (docs/protocol.md): the
 * recent history (the last 1,000 changes), then, with {@code --follow}, everything new until
 * interrupted or until the DVM stops.
 */
@Command(
    description =
        "Show what the DVM does: recent changes, and with --follow new ones as they happen.",
    mixinStandardHelpOptions = true)
public final class EventsCommand extends DvmCommand implements Callable<Integer> {
  @Option(names = "--follow", description = "Keep printing changes until interrupted.")
  boolean follow;

  @Option(names = "--json", description = "One JSON object per line.")
  boolean json;

  @Override
  public Integer call() {
    return connected(OutputHandler.DISCARD, json, this::show);
  }

  private int show(JdvmClient client) throws PmixException, InterruptedException {
    CountDownLatch replayed = new CountDownLatch(1);
    client.followChanges(
        e -> {
          if (e.info(JdvmProtocol.FEED_REPLAYED) != null) {
            replayed.countDown();
            return;
          }
          String line = e.info(json ? JdvmProtocol.CHANGE_JSON : JdvmProtocol.CHANGE);
          if (line != null) {
            out.println(line);
            out.flush();
          }
        });
    if (follow) {
      client.disconnected().join();
      if (!stoppedCleanly(client.contact())) {
        err.println("jdvm events: lost the DVM: it ended without stopping (see its log)");
        return Main.EXIT_FAILURE;
      }
      err.println("jdvm events: the DVM has stopped");
    } else if (!replayed.await(10, TimeUnit.SECONDS)) {
      err.println("jdvm events: the DVM did not send its recent history");
      return Main.EXIT_FAILURE;
    }
    return Main.EXIT_OK;
  }

  /**
   * Whether the DVM stopped the ordered way, which ends with its contact file removed; one that was
   * killed or crashed leaves the file behind its dead pid. Waits (bounded) for either, since the
   * connections close before the file goes. A contact without a directory and pid cannot tell: it
   * is taken as a stop.
   */
  static boolean stoppedCleanly(Contact contact) throws InterruptedException {
    if (contact.dir() == null || contact.pid() == null) {
      return true;
    }
    Path file = contact.dir().resolve(Contact.CONTACT_FILE);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      if (!Files.exists(file)) {
        return true;
      }
      if (ProcessHandle.of(contact.pid()).filter(ProcessHandle::isAlive).isEmpty()) {
        return !Files.exists(file);
      }
      Thread.sleep(20);
    }
    return false;
  }
}
