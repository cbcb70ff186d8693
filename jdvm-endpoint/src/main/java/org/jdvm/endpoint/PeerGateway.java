package org.jdvm.endpoint;

import java.util.List;
import org.jdvm.core.Effect;
import org.jdvm.core.RequestId;
import org.jdvm.host.ProcListener;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/**
 * Where the shell sends what is addressed to peers: the PMIx endpoint implements it. Every method
 * is called on the controller thread (or, for output, on an agent's reader thread) and must only
 * queue the message for the peer's connection, never block.
 */
public interface PeerGateway {
  /** The answer to a request the endpoint submitted under {@code requestId}. */
  void reply(RequestId requestId, int status, List<Info> infos);

  /** A directed event for one process (spec §8.2.1.9.5: never a broadcast). */
  void notify(Proc target, int status, Proc source, List<Info> infos);

  /** Output of a process, for whoever follows its job (the spawner, IOF pulls). */
  void output(String nspace, int rank, ProcListener.Stream stream, byte[] chunk);

  /** Whether to stop reading {@code nspace}'s output until {@code resume} runs. */
  default boolean holdOutput(String nspace, Runnable resume) {
    return false;
  }

  /** A scheduler-instantiated session is complete: tell the attached scheduler, once. */
  void sessionComplete(Effect.ReportSessionComplete report);
}
