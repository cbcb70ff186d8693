package org.jdvm.server.agents;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.agent.link.RelayChannel;
import org.jdvm.agent.relay.PeerIdentity;
import org.jdvm.endpoint.PmixEndpoint;
import org.jdvm.endpoint.RelayedPeers;
import org.jdvm.endpoint.pmi.PmiServer;

/**
 * The controller's end of a node agent's PMIx relay (architecture.md §5, docs/protocol.md "Node
 * agents"): the peers that the agent of one node admitted arrive on its {@link RelayChannel} and
 * are served by the controller's endpoint as if they had connected to it, for the identity the
 * agent vouches for ({@link PeerIdentity}); the endpoint refuses a process not placed on that node.
 *
 * <pre>{@code
 * RelayHost host = RelayHost.serve(endpoint, "node3", channel); // once the agent of node3 joined
 * ...
 * host.close(); // the agent's link is gone: its peers are closed
 * }</pre>
 */
public final class RelayHost implements RelayChannel.RelayListener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  private final RelayChannel channel;
  private final RelayedPeers peers;
  private final PmiServer pmi;

  /** The simple PMI peers the agent carries (docs/protocol.md "Simple PMI"), by their ids. */
  private final Map<Long, PmiServer.Tunnel> tunnels = new ConcurrentHashMap<>();

  private RelayHost(PmixEndpoint endpoint, String node, RelayChannel channel) {
    this.channel = channel;
    this.pmi = endpoint.pmi();
    this.peers =
        endpoint.relayedPeers(
            node,
            new RelayedPeers.Carrier() {
              @Override
              public void send(long id, byte[] message) {
                channel.send(id, message);
              }

              @Override
              public void closed(long id) {
                channel.closed(id);
              }
            });
  }

  /** Serves the relay of the agent of {@code node} that {@code channel} links to. */
  public static RelayHost serve(PmixEndpoint endpoint, String node, RelayChannel channel) {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(channel, "channel");
    RelayHost host = new RelayHost(endpoint, node, channel);
    channel.onReceive(host);
    return host;
  }

  /** The relayed peers open now. */
  public int peers() {
    return peers.size();
  }

  @Override
  public void opened(long id, byte[] peerIdentity) {
    PeerIdentity who;
    try {
      who = PeerIdentity.decode(peerIdentity);
    } catch (IllegalArgumentException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "node=" + peers.node() + " relayed=" + id + " refused=\"" + e.getMessage() + "\"");
      channel.closed(id);
      return;
    }
    if (who.kind() == PeerIdentity.Kind.PMI) {
      PmiServer.Tunnel t =
          pmi.carried(
              peers.node(),
              who.proc(),
              bytes -> channel.send(id, bytes),
              () -> {
                tunnels.remove(id);
                channel.closed(id);
              });
      if (t != null) {
        tunnels.put(id, t);
      }
      return;
    }
    peers.opened(
        id, who.kind() == PeerIdentity.Kind.TOOL, who.proc(), who.format(), who.uid(), who.pid());
  }

  @Override
  public void frame(long id, byte[] frame) {
    PmiServer.Tunnel t = tunnels.get(id);
    if (t != null) {
      t.line(frame);
      return;
    }
    peers.frame(id, frame);
  }

  @Override
  public void closed(long id) {
    PmiServer.Tunnel t = tunnels.remove(id);
    if (t != null) {
      t.closed();
      return;
    }
    peers.closed(id);
  }

  /** The agent's link is gone: every peer it carried is closed (and departs, if a tool). */
  @Override
  public void close() {
    tunnels.values().forEach(PmiServer.Tunnel::closed);
    tunnels.clear();
    peers.close();
  }
}
