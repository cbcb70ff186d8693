package org.jdvm.server.agents;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.NodeSpec;

/**
 * What a restarted controller needs to find the agents of the one that died (docs/journal.md
 * "Agents that outlive the controller"): the address and port the agents connect back to, the
 * heartbeats, the scheduler kind, and the start-up pool with the nodes that run agents. Written to
 * {@code DIR/agents} once every agent joined, removed by a clean stop; it holds no secret (the
 * DVM's own secret in the directory authenticates the agents).
 *
 * @param listen where the agents connect back to
 * @param settings the heartbeats they were told
 * @param scheduler the scheduler kind's name, as {@code jdvm start --scheduler} takes it
 * @param pool the start-up pool, the controller's own node first
 * @param agents the nodes of the pool that run an agent
 * @param granted nodes a scheduler granted later that run an agent (Slurm's, started with srun)
 */
public record AgentRoster(
    InetSocketAddress listen,
    AgentHub.Settings settings,
    String scheduler,
    List<NodeSpec> pool,
    List<String> agents,
    List<String> granted) {
  /** The file's name in the DVM's directory. */
  public static final String FILE = "agents";

  /** A larger file is not a roster this code wrote. */
  static final long MAX_BYTES = 16 << 20;

  public AgentRoster {
    pool = List.copyOf(pool);
    agents = List.copyOf(agents);
    granted = List.copyOf(granted);
  }

  /** A roster of the start-up pool's agents only. */
  public AgentRoster(
      InetSocketAddress listen,
      AgentHub.Settings settings,
      String scheduler,
      List<NodeSpec> pool,
      List<String> agents) {
    this(listen, settings, scheduler, pool, agents, List.of());
  }

  /** Every node whose agent may rejoin: the pool's, then the granted ones. */
  public List<String> rejoining() {
    java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(agents);
    all.addAll(granted);
    return List.copyOf(all);
  }

  /** Writes the roster in place of any earlier one (atomically). */
  public void write(Path dir) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("listen=")
        .append(listen.getAddress().getHostAddress())
        .append(' ')
        .append(listen.getPort())
        .append('\n');
    b.append("heartbeat=")
        .append(settings.heartbeatMillis())
        .append(' ')
        .append(settings.missedHeartbeats())
        .append('\n');
    b.append("scheduler=").append(scheduler).append('\n');
    for (NodeSpec n : pool) {
      b.append(agents.contains(n.name()) ? "agent=" : "node=")
          .append(n.name())
          .append(' ')
          .append(n.slots())
          .append('\n');
    }
    for (String g : granted) {
      b.append("granted=").append(g).append('\n');
    }
    Path tmp = dir.resolve(FILE + ".tmp");
    Files.deleteIfExists(tmp); // created anew, its owner's only, never through a link left there
    Files.createFile(
        tmp,
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    Files.writeString(
        tmp,
        b,
        StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.WRITE,
        java.nio.file.LinkOption.NOFOLLOW_LINKS);
    try {
      Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The roster in {@code dir}, or {@code null} if there is none. */
  public static AgentRoster read(Path dir) throws IOException {
    Path f = dir.resolve(FILE);
    if (!Files.isRegularFile(f)) {
      return null;
    }
    if (Files.size(f) > MAX_BYTES) {
      throw new IOException(f + " is larger than " + MAX_BYTES + " bytes");
    }
    InetSocketAddress listen = null;
    AgentHub.Settings settings = null;
    String scheduler = "none";
    List<NodeSpec> pool = new ArrayList<>();
    List<String> agents = new ArrayList<>();
    List<String> granted = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (line.isBlank() || eq < 0) {
          continue;
        }
        String key = line.substring(0, eq);
        String[] v = line.substring(eq + 1).trim().split(" ");
        switch (key) {
          case "listen" ->
              listen = new InetSocketAddress(InetAddress.getByName(v[0]), Integer.parseInt(v[1]));
          case "heartbeat" ->
              settings = new AgentHub.Settings(Long.parseLong(v[0]), Integer.parseInt(v[1]));
          case "scheduler" -> scheduler = v[0];
          case "agent", "node" -> {
            if (key.equals("agent")) {
              HostList.checkName(v[0]);
              agents.add(v[0]);
            }
            pool.add(new NodeSpec(v[0], Integer.parseInt(v[1])));
          }
          case "granted" -> {
            HostList.checkName(v[0]);
            if (granted.size() < HostList.MAX_HOSTS) {
              granted.add(v[0]);
            }
          }
          default -> {} // a later version's: ignored
        }
      }
    } catch (RuntimeException e) {
      throw new IOException(f + " is not a roster of agents: " + e.getMessage(), e);
    }
    if (listen == null || settings == null || pool.isEmpty()) {
      throw new IOException(f + " is not a roster of agents: it lacks listen, heartbeat or nodes");
    }
    return new AgentRoster(listen, settings, scheduler, pool, agents, granted);
  }

  /** Removes the roster (a clean stop: nobody will rejoin). */
  public static void remove(Path dir) {
    try {
      Files.deleteIfExists(dir.resolve(FILE));
    } catch (IOException e) {
      // Harmless: a roster is read only next to a journal, which a clean stop removes too.
    }
  }
}
