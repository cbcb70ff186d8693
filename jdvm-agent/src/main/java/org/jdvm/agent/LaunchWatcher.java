package org.jdvm.agent;

import java.util.function.UnaryOperator;
import org.jdvm.host.LaunchRequest;

/**
 * A relay hook that also hears of the agent's processes ({@link AgentRelay}): each launch before it
 * starts and once it has a pid (or failed), each exit, and the agent's end.
 */
public interface LaunchWatcher extends UnaryOperator<LaunchRequest> {
  /** {@code rank} of {@code nspace} is about to start (its pid is awaited from now on). */
  void launching(String nspace, int rank);

  /** It started as {@code pid}, or did not start ({@code pid} &lt; 0). */
  void launched(String nspace, int rank, long pid);

  /** It ended. */
  void exited(String nspace, int rank);

  /** The agent ends: its processes are gone. */
  void close();

  /** What the relay makes of the launch of {@code rank} of {@code nspace}. */
  default LaunchRequest prepare(String nspace, int rank, LaunchRequest request) {
    return apply(request);
  }
}
