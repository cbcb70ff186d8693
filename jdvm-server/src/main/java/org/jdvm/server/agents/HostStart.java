package org.jdvm.server.agents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdvm.core.NodeSpec;
import org.jdvm.host.identity.Credentials;

/**
 * Start-up of a DVM across hosts: one agent per host through the {@link AgentStarter}, all at once,
 * each announced as it joins; fails with one line naming every host that could not be reached (its
 * launcher's exit status and last output) or did not join in time, after stopping what it started.
 */
public final class HostStart {
  private HostStart() {}

  /** The hosts' nodes with their slots, once every agent has joined. */
  public static List<NodeSpec> run(AgentHub hub, RemoteHosts remote, Credentials credentials)
      throws IOException {
    Joined joined = join(hub, remote, credentials);
    if (!joined.failures().isEmpty()) {
      hub.close();
      joined.started().values().forEach(AgentStarter.Handle::stop);
      throw new IOException(
          "cannot start agents: " + String.join("; ", joined.failures().values()));
    }
    return joined.nodes();
  }

  /**
   * Agents for nodes that join a running DVM (a scheduler's grant): started and awaited as at
   * start-up; the launchers of those that did not join are stopped, and the hub stays open.
   *
   * @return the nodes whose agent did not join, each with why
   */
  public static Map<String, String> joinLater(
      AgentHub hub, RemoteHosts remote, Credentials credentials) {
    hub.expectAgain(remote.hosts().stream().map(HostList.Host::name).toList());
    Joined joined = join(hub, remote, credentials);
    for (String host : joined.failures().keySet()) {
      AgentStarter.Handle h = joined.started().get(host);
      if (h != null) {
        h.stop();
      }
    }
    return joined.failures();
  }

  private record Joined(
      List<NodeSpec> nodes,
      Map<String, String> failures,
      Map<String, AgentStarter.Handle> started) {}

  private static Joined join(AgentHub hub, RemoteHosts remote, Credentials credentials) {
    List<HostList.Host> hosts = remote.hosts();
    Map<String, CompletableFuture<RemoteNodeAgent>> joining = new LinkedHashMap<>();
    for (HostList.Host h : hosts) {
      hub.expect(h.name());
      joining.put(h.name(), new CompletableFuture<>());
    }
    AtomicInteger count = new AtomicInteger();
    Runnable stopListening =
        hub.onJoined(
            a -> {
              CompletableFuture<RemoteNodeAgent> f = joining.get(a.node());
              if (f != null && f.complete(a)) {
                remote
                    .progress()
                    .accept(
                        "jdvm start: "
                            + a.node()
                            + " joined ("
                            + count.incrementAndGet()
                            + "/"
                            + hosts.size()
                            + ")");
              }
            });
    try {
      Map<String, AgentStarter.Handle> started = start(hub, remote, credentials, joining);
      return awaitJoined(remote, joining, started);
    } finally {
      stopListening.run();
    }
  }

  /**
   * Starts an agent on every host through the remote's starter, the secret on its stdin; a host
   * whose launcher fails or exits completes its future exceptionally.
   */
  private static Map<String, AgentStarter.Handle> start(
      AgentHub hub,
      RemoteHosts remote,
      Credentials credentials,
      Map<String, CompletableFuture<RemoteNodeAgent>> joining) {
    Map<String, AgentStarter.Handle> started = new ConcurrentHashMap<>();
    byte[] secret = (credentials.secretHex() + "\n").getBytes(StandardCharsets.US_ASCII);
    String controller =
        remote.listen().getAddress().getHostAddress() + ":" + hub.address().getPort();
    for (HostList.Host h : remote.hosts()) {
      List<String> argv = new ArrayList<>(remote.agentCommand());
      argv.addAll(
          List.of(
              "agent",
              "--controller",
              controller,
              "--node",
              h.name(),
              "--slots",
              Integer.toString(h.slots())));
      CompletableFuture<RemoteNodeAgent> f = joining.get(h.name());
      try {
        AgentStarter.Handle handle = remote.starter().start(h.name(), argv, secret);
        started.put(h.name(), handle);
        hub.adopt(handle);
        handle
            .onExit()
            .thenAccept(
                status ->
                    f.completeExceptionally(
                        new IOException(
                            h.name()
                                + ": the launcher exited with "
                                + status
                                + oneLine(handle.lastOutput()))));
      } catch (IOException e) {
        f.completeExceptionally(new IOException(h.name() + ": " + e.getMessage()));
      }
    }
    return started;
  }

  /** Waits, until the join timeout, for every host's agent: the nodes that joined, and why not. */
  private static Joined awaitJoined(
      RemoteHosts remote,
      Map<String, CompletableFuture<RemoteNodeAgent>> joining,
      Map<String, AgentStarter.Handle> started) {
    long deadline = System.nanoTime() + remote.joinTimeoutMillis() * 1_000_000;
    Map<String, String> failures = new LinkedHashMap<>();
    List<NodeSpec> nodes = new ArrayList<>();
    for (HostList.Host h : remote.hosts()) {
      try {
        long left = Math.max(0, deadline - System.nanoTime());
        RemoteNodeAgent a = joining.get(h.name()).get(left, TimeUnit.NANOSECONDS);
        nodes.add(new NodeSpec(h.name(), slots(h, a)));
      } catch (ExecutionException e) {
        failures.put(h.name(), e.getCause().getMessage());
      } catch (TimeoutException e) {
        AgentStarter.Handle handle = started.get(h.name());
        failures.put(
            h.name(),
            h.name()
                + ": no agent joined within "
                + remote.joinTimeoutMillis()
                + " ms"
                + (handle == null ? "" : oneLine(handle.lastOutput())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failures.put(h.name(), h.name() + ": interrupted");
        break;
      }
    }
    return new Joined(nodes, failures, started);
  }

  private static int slots(HostList.Host h, RemoteNodeAgent a) {
    if (h.slots() > 0) {
      return h.slots();
    }
    try {
      return Math.max(1, Integer.parseInt(a.resources().getOrDefault("cpus", "1")));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static String oneLine(String output) {
    if (output == null || output.isBlank()) {
      return "";
    }
    String[] lines = output.strip().split("\n");
    return " (" + lines[lines.length - 1].strip() + ")";
  }
}
