package org.jdvm.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.JdvmProtocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jdvm events}: the DVM's state changes as they happen, from the operator feed
 * (docs/protocol.md): the recent history first, then, with {@code --follow}, everything new until
 * interrupted.
 */
@Command(
    name = "events",
    description =
        "Show what the DVM does: recent changes, and with --follow new ones as they happen.",
    mixinStandardHelpOptions = true)
public final class EventsCommand implements Callable<Integer> {
  @Mixin DvmOptions dvm = new DvmOptions();

  @Option(names = "--follow", description = "Keep printing changes until interrupted.")
  boolean follow;

  @Option(names = "--json", description = "One JSON object per line.")
  boolean json;

  PrintStream out = System.out;
  PrintStream err = System.err;

  @Override
  public Integer call() {
    JdvmClient client;
    try {
      client = dvm.connect(OutputHandler.DISCARD);
    } catch (PmixException e) {
      return Outcomes.unreachable(e, err);
    }
    try (client) {
      CountDownLatch lost = new CountDownLatch(1);
      client.followChanges(
          e -> {
            String line = e.info(json ? JdvmProtocol.CHANGE_JSON : JdvmProtocol.CHANGE);
            if (line != null) {
              out.println(line);
              out.flush();
            }
          });
      if (follow) {
        lost.await();
      } else {
        // The feed replays the recent history at once; give it a moment to arrive, then stop.
        lost.await(300, TimeUnit.MILLISECONDS);
      }
      return Main.EXIT_OK;
    } catch (PmixException e) {
      return Outcomes.failed(e, json, out, err);
    } catch (InterruptedException e) {
      return Main.EXIT_OK;
    }
  }
}
