package org.jdvm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;

/**
 * {@code jdvm top} (docs/cli.md): a live full-screen view of the DVM, {@link TopFrame} drawn on
 * {@link TopTerminal}. It lists the nodes and jobs once, then follows the change feed: a change
 * asks for the two small listings again (nodes, and the jobs summary), at most {@link #REDRAW_MS}
 * apart, and adds its line to the events; the screen's size is read on every tick, so a resize
 * redraws the frame to fit. {@code q} (or Ctrl-C, Ctrl-D) quits; a DVM that stops ends it.
 */
@Command(
    description =
        "A live full-screen view: nodes by allocation, jobs not ended, latest events. q quits.",
    mixinStandardHelpOptions = true)
final class TopCommand extends DvmCommand implements Callable<Integer> {
  /** The least time between two listings (at most 4 redraws a second for changes). */
  static final long REDRAW_MS = 250;

  /** How many change lines are kept for the events section. */
  private static final int EVENTS_KEPT = 500;

  /** The frame's size with {@code --once} when there is no terminal to ask. */
  static final int ONCE_WIDTH = 100;

  static final int ONCE_HEIGHT = 40;

  @picocli.CommandLine.Mixin TopOptions options = new TopOptions();

  private final ArrayDeque<String> events = new ArrayDeque<>();
  private final Semaphore wake = new Semaphore(0);
  private final AtomicBoolean changed = new AtomicBoolean(true);
  private final AtomicBoolean quit = new AtomicBoolean();

  @Override
  public Integer call() {
    if (!options.once && !onTerminal()) {
      err.println("jdvm top: not a terminal (it draws on one); use --once to print a single frame");
      return Main.EXIT_USAGE;
    }
    return connected(OutputHandler.DISCARD, false, this::show);
  }

  private int show(JdvmClient client) throws PmixException, InterruptedException {
    CountDownLatch replayed = new CountDownLatch(1);
    client.followChanges(
        e -> {
          if (e.info(JdvmProtocol.FEED_REPLAYED) != null) {
            replayed.countDown();
            return;
          }
          String line = e.info(JdvmProtocol.CHANGE);
          if (line != null) {
            synchronized (events) {
              events.addLast(line);
              while (events.size() > EVENTS_KEPT) {
                events.removeFirst();
              }
            }
            changed.set(true);
            wake.release();
          }
        });
    replayed.await(10, TimeUnit.SECONDS);
    if (options.once) {
      int[] size = onTerminal() ? TopTerminal.size() : null;
      List<String> lines =
          frame(client)
              .lines(size != null ? size[1] : ONCE_WIDTH, size != null ? size[0] : ONCE_HEIGHT);
      lines.forEach(out::println);
      return Main.EXIT_OK;
    }
    client.disconnected().thenRun(wake::release);
    try (TopTerminal terminal = openTerminal()) {
      if (terminal == null) {
        return Main.EXIT_FAILURE;
      }
      startKeys(System.in);
      loop(client, terminal);
    }
    if (quit.get()) {
      return Main.EXIT_OK;
    }
    if (!EventsCommand.stoppedCleanly(client.contact())) {
      err.println("jdvm top: lost the DVM: it ended without stopping (see its log)");
      return Main.EXIT_FAILURE;
    }
    err.println("jdvm top: the DVM stopped");
    return Main.EXIT_OK;
  }

  /** Whether the command's input and output are a terminal. */
  private static boolean onTerminal() {
    return System.console() != null && System.console().isTerminal();
  }

  private TopTerminal openTerminal() {
    try {
      return TopTerminal.open(out);
    } catch (IOException e) {
      err.println("jdvm top: cannot put the terminal in raw mode: " + e.getMessage());
      return null;
    }
  }

  /**
   * Redraws on a change (listing again at most every {@link #REDRAW_MS}) or a new screen size,
   * until {@code q} or the DVM's end. A turn reads the size once and lists at most once, and a
   * burst of changes waits out the period, so neither {@code stty} nor the listings run more than
   * about four times a second whatever the DVM does.
   */
  private void loop(JdvmClient client, TopTerminal terminal)
      throws PmixException, InterruptedException {
    TopFrame frame = null;
    int[] drawn = null;
    long listed = 0;
    while (!quit.get() && !client.disconnected().isDone()) {
      long now = System.nanoTime();
      if (changed.get() && (frame == null || now - listed >= REDRAW_MS * 1_000_000)) {
        changed.set(false);
        listed = now;
        try {
          frame = frame(client);
        } catch (PmixException e) {
          if (goingAway(client)) {
            break; // the DVM went while it was asked: said after the loop
          }
          throw e; // said, as any refusal, once the terminal is restored
        }
        drawn = null;
      }
      int[] size = TopTerminal.size();
      if (size != null
          && frame != null
          && (drawn == null || !java.util.Arrays.equals(drawn, size))) {
        terminal.draw(frame.lines(size[1], size[0]));
        drawn = size;
      }
      long due = listed + REDRAW_MS * 1_000_000 - System.nanoTime();
      if (changed.get() && due > 0) {
        // Changes keep coming: no listing, and no stty, before the period is over.
        Thread.sleep(Math.max(1, due / 1_000_000));
      } else {
        wake.tryAcquire(REDRAW_MS, TimeUnit.MILLISECONDS);
      }
      wake.drainPermits();
    }
  }

  /**
   * Whether the connection closes after a listing failed: a DVM that stops fails the query in
   * flight ({@code PMIX_ERR_UNREACH}) a moment before its connection is seen closed.
   */
  private static boolean goingAway(JdvmClient client) throws InterruptedException {
    try {
      client.disconnected().get(5, TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.ExecutionException e) {
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  /** The frame of the DVM's state now: its nodes and jobs summary, and the kept events. */
  private TopFrame frame(JdvmClient client) throws PmixException {
    List<Map<String, Object>> nodes = Explaining.maps(Json.parse(client.nodesJson()));
    List<Map<String, Object>> jobs = Explaining.maps(Json.parse(client.jobsSummaryJson()));
    List<String> lines;
    synchronized (events) {
      lines = new ArrayList<>(events);
    }
    return new TopFrame(nodes, jobs, lines);
  }

  /** Reads the keys: {@code q}, Ctrl-C or Ctrl-D (raw mode sends them as bytes) quit. */
  private void startKeys(InputStream in) {
    Thread keys =
        new Thread(
            () -> {
              try {
                int b;
                while ((b = in.read()) >= 0) {
                  if (b == 'q' || b == 'Q' || b == 3 || b == 4) {
                    break;
                  }
                }
              } catch (IOException e) {
                // the terminal went away: quit as for q
              }
              quit.set(true);
              wake.release();
            },
            "jdvm-top-keys");
    keys.setDaemon(true);
    keys.start();
  }
}
