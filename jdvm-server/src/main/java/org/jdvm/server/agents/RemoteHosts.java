package org.jdvm.server.agents;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A DVM across hosts, as {@code jdvm start --hosts|--hostfile} asks for it (docs/cli.md).
 *
 * @param hosts the hosts, in order; one named as this host (or {@code localhost}) is the
 *     controller's own node and gets no agent
 * @param starter how agents are started on the others
 * @param listen where the controller listens for agents (an address they can reach)
 * @param agentCommand the command that runs {@code jdvm} on a host, before the {@code agent} word
 * @param settings heartbeats
 * @param joinTimeoutMillis how long start-up waits for every agent to join
 * @param progress where start-up says which host joined
 */
public record RemoteHosts(
    List<HostList.Host> hosts,
    AgentStarter starter,
    InetSocketAddress listen,
    List<String> agentCommand,
    AgentHub.Settings settings,
    long joinTimeoutMillis,
    Consumer<String> progress) {
  public RemoteHosts {
    hosts = List.copyOf(hosts);
    agentCommand = List.copyOf(agentCommand);
    Objects.requireNonNull(starter, "starter");
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(progress, "progress");
  }

  /**
   * Whether these are the local agents of an embedded DVM's virtual nodes ({@link
   * LocalAgentStarter}): the hosts are the start-up pool, there is no controller's node, and no
   * roster is kept (they end with the controller).
   */
  public boolean local() {
    return starter instanceof LocalAgentStarter;
  }

  /** This host's name, as the controller's node is called in a DVM across hosts. */
  public static String thisHost() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  /** Whether a host-list entry names this host. */
  public static boolean isThisHost(String name) {
    return name.equals("localhost") || name.equals(thisHost());
  }
}
