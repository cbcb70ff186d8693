package org.jdvm.server.agents;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.agent.link.RelayPort;
import org.jdvm.endpoint.PmixEndpoint;

/**
 * The controller's ends of its agents' PMIx relays (docs/protocol.md "Node agents"): one {@link
 * RelayHost} per node on the node's {@link RelayPort}, from the agent's first join — or from now,
 * for agents that joined before the endpoint was up — for the life of the node; it moves with the
 * port when the agent joins again, and closes (its peers with it) when the node goes down, when a
 * node that left joins anew (a scheduler granted it again: a new agent, a new port), or when the
 * DVM stops.
 *
 * <pre>{@code
 * AgentRelays relays = AgentRelays.serve(endpoint, hub); // once the endpoint serves the DVM
 * ...
 * relays.close();
 * }</pre>
 */
public final class AgentRelays implements AutoCloseable {
  private final PmixEndpoint endpoint;
  private final Map<String, Served> hosts = new ConcurrentHashMap<>();

  /** The relay served for one controller-side agent of a node. */
  private record Served(RemoteNodeAgent agent, RelayHost host) {}

  private volatile boolean closed;

  private AgentRelays(PmixEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** Serves the relay of every agent of {@code hub}, those joined already and those to come. */
  public static AgentRelays serve(PmixEndpoint endpoint, AgentHub hub) {
    AgentRelays relays = new AgentRelays(endpoint);
    hub.onJoined(relays::joined);
    hub.onLost(relays::lost);
    for (RemoteNodeAgent a : hub.all()) {
      if (a.state() != NodeState.JOINING && a.state() != NodeState.DOWN) {
        relays.joined(a);
      }
    }
    return relays;
  }

  private void joined(RemoteNodeAgent a) {
    if (closed) {
      return;
    }
    Served[] replaced = new Served[1];
    hosts.compute(
        a.node(),
        (n, old) -> {
          if (old != null && old.agent() == a) {
            return old;
          }
          replaced[0] = old; // the node left and was granted again: a new agent, a new port
          return new Served(a, RelayHost.serve(endpoint, n, a.relay()));
        });
    if (replaced[0] != null) {
      replaced[0].host().close();
    }
  }

  private void lost(String node) {
    Served s = hosts.remove(node);
    if (s != null) {
      s.host().close();
    }
  }

  /** The relayed peers open now, over every node. */
  public int peers() {
    return hosts.values().stream().mapToInt(s -> s.host().peers()).sum();
  }

  @Override
  public void close() {
    closed = true;
    for (String node : java.util.List.copyOf(hosts.keySet())) {
      lost(node);
    }
  }
}
