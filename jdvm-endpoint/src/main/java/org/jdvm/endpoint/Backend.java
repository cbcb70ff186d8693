package org.jdvm.endpoint;

import java.util.List;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.deliver.OutcomeWatcher;
import org.jdvm.endpoint.serve.Upstream;
import org.jdvm.endpoint.wireup.Fences;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.pmix.Info;

/**
 * What stands behind the endpoint: the {@link Upstream} its operations submit to, which also hears
 * the lives of jobs (for the wire-up state it holds) and the answers to what was submitted. The
 * assembly (jdvm-server's {@code ControllerUpstream} over the controller) builds it from the
 * endpoint's own {@link Parts}; a node agent's relay could build another.
 */
public interface Backend extends Upstream, OutcomeWatcher.JobLife {
  /** The answer to a request submitted under {@code requestId}. */
  void reply(RequestId requestId, int status, List<Info> infos);

  /**
   * The endpoint's parts a backend works with.
   *
   * @param outcomes tells when a job's processes have pids
   * @param stop stops the DVM without blocking; run after a STOP request was answered
   * @param modex what ranks committed
   * @param fences the open fences
   */
  record Parts(OutcomeWatcher outcomes, Runnable stop, ModexStore modex, Fences fences) {}

  /** Builds the backend once the endpoint's parts exist. */
  interface Factory {
    Backend create(Parts parts);
  }
}
