package org.jdvm.server.pmix.serve;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.server.node.Cleanup;

/**
 * Everything the serving half needs from the DVM, and the seam where it may run elsewhere: in the
 * controller, requests go to the core and reads go to its views ({@code
 * upstream.ControllerUpstream}); a node agent hosting this same endpoint for its local processes
 * implements it by answering what it holds (its processes' job data, local gets) and forwarding the
 * rest to the controller.
 *
 * <p>Futures complete on whatever thread answers (the controller thread, in the controller), where
 * a continuation may only pack and queue. A future that fails carries an {@link
 * IllegalArgumentException} for input the DVM refused to take, anything else for a DVM that could
 * not be reached.
 */
public interface Upstream {
  /** The DVM's answer to one request. */
  record Answer(int status, List<Info> infos) {
    public Answer {
      infos = List.copyOf(infos);
    }

    /** The first value under {@code key}, as text; {@code null} when absent. */
    public String info(String key) {
      for (Info i : infos) {
        if (i.key().equals(key)) {
          Object d = i.value().data();
          return d == null ? null : String.valueOf(d);
        }
      }
      return null;
    }
  }

  /** A fresh id to build a request with. */
  RequestId nextId();

  /** Submits a request built with {@link #nextId}; completes with the core's answer, once. */
  CompletableFuture<Answer> submit(RequestId id, Request request);

  /** A fact for the DVM that needs no answer. */
  void report(Report report);

  /** The job data of a launched process's job (REQ); empty when there is no such process. */
  CompletableFuture<Optional<List<KVal>>> jobData(Proc proc);

  /** One key of a process's data (GETNB); empty when nobody holds it. */
  CompletableFuture<Optional<KVal>> get(Proc proc, String key);

  /** {@code PMIx_Query_info}: SUCCESS with the answers, or the error when none could be given. */
  CompletableFuture<Answer> query(List<Query> queries);

  /** Whether {@code proc} is a rank of a live application job. */
  CompletableFuture<Boolean> isLiveProc(Proc proc);

  /**
   * The pid of {@code proc}, waiting at most {@code timeoutMs} for its launch to be reported; 0
   * when it was not reported in time, -1 when there is no such live process. Blocks: call only on a
   * connection's reader.
   */
  long awaitPid(Proc proc, long timeoutMs);

  /**
   * {@code IOF_PUSH}: forwards a chunk of {@code requester}'s stdin (empty: end of file) to {@code
   * target} (rank WILDCARD: every process of its job that reads a pipe). Completes with SUCCESS
   * once the targets' pipes took it, {@code PMIX_ERR_IOF_COMPLETE} when no target's stdin is open
   * any more, or the refusal ({@code PMIX_ERR_NO_PERMISSIONS}, {@code PMIX_ERR_NOT_FOUND}). Blocks
   * while a target is being launched or its pipe is full (back-pressure, both bounded): call only
   * on a connection's reader.
   */
  CompletableFuture<Integer> pushStdin(Proc requester, Proc target, byte[] chunk);

  /**
   * {@code PMIx_Job_control} with a cleanup directive: registers a path for removal when the
   * targets' processes have ended, on each node they run on. Returns SUCCESS, or the refusal
   * ({@code PMIX_ERR_NO_PERMISSIONS} for another job or a path outside the allowed places, {@code
   * PMIX_ERR_NOT_FOUND}, {@code PMIX_ERR_OUT_OF_RESOURCE}). Blocks (bounded): call only on a
   * connection's reader.
   */
  int registerCleanup(Proc requester, List<Proc> targets, Cleanup.Registration registration);

  /** Stops the DVM (after the STOP request was answered). */
  void stop();
}
