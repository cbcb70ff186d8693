package org.jdvm.server.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jdvm.host.NodeAgent;

/** The agents of the nodes in the DVM, by node name. Thread-safe. */
public final class NodeRegistry {
  private final Map<String, NodeAgent> agents = new ConcurrentHashMap<>();
  private final Function<String, NodeAgent> factory;

  /**
   * @param factory makes the agent of a node joining the DVM
   */
  public NodeRegistry(Function<String, NodeAgent> factory) {
    this.factory = factory;
  }

  /** Starts the agent of a node joining the DVM (idempotent). */
  public NodeAgent add(String node) {
    return agents.computeIfAbsent(node, factory);
  }

  /** The agent of a node, or {@code null} if the node is not in the DVM. */
  public NodeAgent get(String node) {
    return agents.get(node);
  }

  /** Removes a node's agent (the caller ends its processes). */
  public NodeAgent remove(String node) {
    return agents.remove(node);
  }

  public List<NodeAgent> all() {
    return new ArrayList<>(agents.values());
  }
}
