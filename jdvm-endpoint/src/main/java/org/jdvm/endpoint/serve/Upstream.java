package org.jdvm.endpoint.serve;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.wireup.Blob;
import org.jdvm.endpoint.wireup.Member;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.host.Cleanup;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;

/**
 * Everything the serving half needs from the DVM, and the seam where it may run elsewhere: in the
 * controller, requests go to the core and reads go to its views ({@code
 * upstream.ControllerUpstream}). A node agent's processes are served here too, through its relay
 * (docs/protocol.md "Node agents"), which answers what it holds (job data, its node's fence
 * entries) on the frames before they come here; an agent running this endpoint itself would
 * implement this interface over its link.
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

  /**
   * After a restart, whether {@code namespace} was a tool or scheduler namespace waiting for its
   * client to reconnect; if so it is the caller's now (docs/journal.md "Clients").
   */
  default boolean reattach(String namespace) {
    return false;
  }

  /** A fresh id to build a request with. */
  RequestId nextId();

  /** Submits a request built with {@link #nextId}; completes with the core's answer, once. */
  CompletableFuture<Answer> submit(RequestId id, Request request);

  /**
   * Submits a request as {@link #submit(RequestId, Request)} does, and runs {@code taken} once the
   * DVM took it (handled it, whether or not it is answered yet): what a connection's bound of
   * requests in flight counts. By default that is when it is answered.
   */
  default CompletableFuture<Answer> submit(RequestId id, Request request, Runnable taken) {
    CompletableFuture<Answer> answer = submit(id, request);
    answer.whenComplete((a, t) -> taken.run());
    return answer;
  }

  /** A fact for the DVM that needs no answer. */
  void report(Report report);

  /** The job data of a launched process's job (REQ); empty when there is no such process. */
  CompletableFuture<Optional<List<KVal>>> jobData(Proc proc);

  /**
   * A GETNB's answer: its status and, on SUCCESS, the blobs to send in order (docs/wireup.md §c.3).
   */
  record Got(int status, List<Blob> blobs) {
    public Got {
      blobs = List.copyOf(blobs);
    }
  }

  /**
   * {@code PMIx_Get} of what the DVM or a peer holds (GETNB, docs/wireup.md §c.3): rank WILDCARD is
   * the job's data; a rank of the requester's namespace is what it committed in the scope the
   * requester sees; a rank of another namespace is the job's data, then the rank's. A key not
   * committed yet waits for the target's commits up to {@code timeoutMs} ({@code
   * PMIX_ERR_TIMEOUT}), unless {@code immediate} ({@code PMIX_ERR_NOT_FOUND} at once).
   *
   * @param key the key asked for, or {@code null} for everything visible
   */
  CompletableFuture<Got> get(
      Proc requester, Proc target, String key, boolean immediate, long timeoutMs);

  /**
   * {@code PMIx_Commit} (COMMIT): keeps what {@code proc} committed, per scope, replacing key by
   * key.
   *
   * @return SUCCESS, or {@code PMIX_ERR_OUT_OF_RESOURCE} past the rank's bound (nothing kept)
   */
  int commit(Proc proc, List<ModexStore.Entry> local, List<ModexStore.Entry> remote);

  /**
   * {@code PMIx_Fence} (FENCENB, docs/wireup.md §c.2): completes with the fence's status once every
   * participant entered or is gone, or at once with a refusal ({@code PMIX_ERR_NOT_FOUND} for a
   * namespace the DVM has no application job of, {@code PMIX_ERR_BAD_PARAM} for a rank it does not
   * have or a caller that is not a participant, {@code PMIX_ERR_OUT_OF_RESOURCE} past the open
   * fences' bound).
   *
   * @param procs the participants as named (not empty: the caller's namespace is WILDCARD)
   * @param timeoutMs the caller's {@code pmix.timeout}, 0 for none
   */
  CompletableFuture<Integer> fence(Proc caller, List<Proc> procs, boolean collect, long timeoutMs);

  /**
   * A node agent's single entry for its local participants (docs/protocol.md "Node agents"): the
   * caller and every {@code represented} rank enter {@link #fence}, once the DVM confirmed they all
   * run on the caller's node ({@code PMIX_ERR_NO_PERMISSIONS} otherwise); completes when the fence
   * completes for any of them (every entrant of a fence is answered with the same status at once).
   */
  default CompletableFuture<Integer> fenceFor(
      Proc caller, List<Proc> procs, boolean collect, long timeoutMs, List<Proc> represented) {
    return placedWith(caller, represented)
        .thenCompose(
            together -> {
              if (!together) {
                return CompletableFuture.completedFuture(PmixStatus.ERR_NO_PERMISSIONS);
              }
              List<CompletableFuture<Integer>> entries = new java.util.ArrayList<>();
              entries.add(fence(caller, procs, collect, timeoutMs));
              for (Proc p : represented) {
                entries.add(fence(p, procs, collect, timeoutMs));
              }
              return CompletableFuture.anyOf(entries.toArray(CompletableFuture[]::new))
                  .thenApply(status -> (Integer) status);
            });
  }

  /**
   * An application namespace as a collective sees it: how many ranks it has and which of them
   * ended.
   */
  record Ranks(String nspace, int size, List<Integer> ended) {
    public Ranks {
      ended = List.copyOf(ended);
    }
  }

  /**
   * Who a process is for published data's ranges (docs/wireup.md §c.4): its node and session; a
   * tool has no node. Empty when the DVM knows no such process or tool.
   */
  CompletableFuture<Optional<Member>> member(Proc proc);

  /**
   * Whether every one of {@code others} is a rank of a live job placed on the node {@code proc}
   * runs on: what a node agent may enter a fence for (docs/protocol.md "Node agents").
   */
  CompletableFuture<Boolean> placedWith(Proc proc, List<Proc> others);

  /** The application namespaces among {@code nspaces} the DVM knows, by namespace. */
  CompletableFuture<Map<String, Ranks>> ranks(Collection<String> nspaces);

  /**
   * Each known application namespace's job data, as a process of another job stores it after {@code
   * PMIx_Connect} (docs/wireup.md §c.5): the REQ reply's KVALs after its namespace, less what only
   * one of its processes would be told about its own node.
   */
  CompletableFuture<Map<String, List<KVal>>> namespaceData(Collection<String> nspaces);

  /** {@code PMIx_Query_info}: SUCCESS with the answers, or the error when none could be given. */
  CompletableFuture<Answer> query(List<Query> queries);

  /**
   * {@code jdvm.qry.explain}: the core's explanation of {@code wouldBe} (or, when it is {@code
   * null}, of job {@code job}), narrowed to {@code node} or allocation {@code alloc}, as the answer
   * to that query key (docs/cli.md {@code jdvm explain}).
   */
  CompletableFuture<Answer> explain(Request.Spawn wouldBe, String job, String node, String alloc);

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
