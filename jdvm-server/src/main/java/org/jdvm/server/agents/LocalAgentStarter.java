package org.jdvm.server.agents;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a node agent on this host as a child process, with no ssh between (docs/cli.md "jdvm
 * start", {@code --node-agents}): each virtual node of an embedded DVM then lives in its own {@code
 * jdvm agent}, which holds the descriptors of its processes, so that the controller holds a few per
 * node (its link) instead of 2–4 per process (docs/ARCHITECTURE.md "Processes beyond one process's
 * open-file limit").
 *
 * <p>A local agent ends with its controller: it is started with {@code --reconnect-ms 0}, so a
 * controller that dies (its link closes with its process, even under SIGKILL) makes it end every
 * process and exit at once rather than wait for a restart; nothing of a local agent is written to
 * the roster ({@code DIR/agents}), so a restarted controller starts new ones. Its pid is recorded
 * ({@link LocalAgentPids}) so that {@code jdvm stop} makes sure it is gone.
 */
public final class LocalAgentStarter implements AgentStarter {
  /** How long {@link Handle#stop} waits between TERM and KILL. */
  static final long STOP_GRACE_MILLIS = 2_000;

  private final List<Long> pids = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The pids of the agents started so far. */
  public List<Long> pids() {
    return List.copyOf(pids);
  }

  @Override
  public Handle start(String node, List<String> argv, byte[] secret) throws IOException {
    List<String> cmd = new ArrayList<>(argv);
    cmd.addAll(List.of("--reconnect-ms", "0"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    pids.add(p.pid());
    try (OutputStream in = p.getOutputStream()) {
      in.write(secret);
    } catch (IOException e) {
      // It already ended: its exit and output say why.
    }
    SshAgentStarter.Tail tail = new SshAgentStarter.Tail();
    Thread.ofVirtual().name("jdvm-agent-" + node).start(() -> tail.drain(p.getInputStream()));
    return Handle.of(
        p,
        tail,
        () -> {
          p.destroy(); // TERM: the agent ends its processes (SIGTERM then SIGKILL) and exits
          try {
            if (!p.waitFor(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
              p.destroyForcibly();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
          }
        });
  }
}
