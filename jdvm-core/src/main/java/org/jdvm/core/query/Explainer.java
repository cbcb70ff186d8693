package org.jdvm.core.query;

import java.util.Optional;
import org.jdvm.core.Request;

/**
 * The spawn rule's own explanation of itself ({@code spawn.SpawnExplainer}), handed to the views so
 * the query path can serve it without this package depending on the rule packages.
 */
public interface Explainer {
  /**
   * What {@code wouldBe} would do now, and why: for every node of the DVM, or only {@code node}, or
   * only the nodes of allocation {@code allocId} (live, or remembered if it ended).
   */
  Explanation explain(Request.Spawn wouldBe, String node, String allocId);

  /** Why a job's processes are where they are, and why it may not use the other nodes. */
  Optional<Explanation> explainJob(String namespace, String node, String allocId);
}
