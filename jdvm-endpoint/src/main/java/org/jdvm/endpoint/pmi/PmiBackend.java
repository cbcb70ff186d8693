package org.jdvm.endpoint.pmi;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jdvm.pmix.Proc;

/**
 * What the simple PMI engine ({@link PmiEngine}) needs of the DVM: a handful of callbacks, as
 * flux-core's simple server takes them (who the peer is, {@code identify}, is the connection's and
 * is given to the engine beside these). {@link UpstreamBackend} implements them over the same
 * wire-up state the PMIx endpoint serves (one modex and one fence per job).
 */
interface PmiBackend {
  /**
   * What a rank is told about its job.
   *
   * @param mapping the {@code PMI_process_mapping} value, {@code (vector,(node,nodes,ppn),...)}
   */
  record Facts(int size, int universe, int appnum, String mapping) {}

  /** A get's answer: the value, or why there is none. */
  record Got(String value, String refusal) {
    static Got refused(String why) {
      return new Got(null, why);
    }
  }

  /** What {@code self} is told about its job; empty when its job is gone. */
  CompletableFuture<Optional<Facts>> facts(Proc self);

  /** Keeps {@code key=value} for {@code self}'s job; {@code null} when kept, else why not. */
  String put(Proc self, String key, String value);

  /** The value some rank of {@code self}'s job put under {@code key}; never waits for a put. */
  CompletableFuture<Got> get(Proc self, String key);

  /**
   * Enters the barrier of {@code self}'s job, for itself and for the {@code represented} ranks of
   * its job (a node agent's relay enters once for its node's ranks; they must run on {@code self}'s
   * node); completes with its PMIx status.
   */
  CompletableFuture<Integer> barrier(Proc self, List<Integer> represented);

  /** Ends {@code self}'s job with {@code exitCode}. */
  void abort(Proc self, int exitCode, String message);

  /**
   * Spawns {@code request} as a child job of {@code self}'s ({@code MPI_Comm_spawn}): its processes
   * find the request's preput keys put already, are told {@code PMI_SPAWNED=1}, run in the app's
   * {@code wdir} or else {@code cwd}, and their output goes where their parent job's goes.
   *
   * @param cwd the spawning process's working directory, {@code null} when unknown
   * @return {@code null} once every child is launched, else why not
   */
  CompletableFuture<String> spawn(Proc self, PmiSpawn.Request request, String cwd);

  /** {@code MPI_Publish_name}: {@code null} when published, else why not. */
  CompletableFuture<String> publish(Proc self, String service, String port);

  /** {@code MPI_Lookup_name}: the port published under {@code service}; never waits for one. */
  CompletableFuture<Got> lookup(Proc self, String service);

  /** {@code MPI_Unpublish_name}: {@code null} when withdrawn, else why not. */
  String unpublish(Proc self, String service);

  /**
   * PMI-2's {@code info-putnodeattr}: keeps {@code key=value} for the ranks of {@code self}'s job
   * on its node; {@code null} when kept, else why not.
   */
  String putNodeAttr(Proc self, String key, String value);

  /**
   * PMI-2's {@code info-getnodeattr}: the value a rank of {@code self}'s job on its node put under
   * {@code key}; with {@code wait}, completes once one is put (or the job ends).
   */
  CompletableFuture<Got> nodeAttr(Proc self, String key, boolean wait);
}
