package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.body.CommitRequest;
import org.jdvm.pmix.body.FenceRequest;

/**
 * The wire-up of a job's processes (docs/wireup.md §c.1, §c.2): {@code PMIx_Commit} (COMMIT) keeps
 * what a rank put, {@code PMIx_Fence} (FENCENB) waits for the participants. Peers' data is then
 * read with GETNB ({@link QueryOps#get}).
 */
public final class WireupOps {
  /**
   * COMMIT ({@link CommitRequest}); answered {@code STATUS}: libpmix waits for a reply (whose
   * content it ignores), so without one {@code PMIx_Commit}, and with it {@code MPI_Init}, hangs. A
   * reserved key or an unknown scope is {@code PMIX_ERR_BAD_PARAM} ({@link RequestChecks}).
   */
  void commit(Exchange x) throws BadRequest {
    if (x.peer().role() != Peer.Role.APPLICATION) {
      throw BadRequest.notSupported("only a launched process commits data");
    }
    CommitRequest commit = CommitRequest.read(x.in(), x.checks());
    x.replyStatus(x.upstream().commit(x.self(), entries(commit.local()), entries(commit.remote())));
  }

  /** A commit's KVALs as the modex keeps them, each with its size on the wire. */
  private static List<ModexStore.Entry> entries(List<CommitRequest.Entry> committed) {
    List<ModexStore.Entry> entries = new ArrayList<>(committed.size());
    for (CommitRequest.Entry e : committed) {
      entries.add(new ModexStore.Entry(e.kval().key(), e.kval().value(), e.bytes()));
    }
    return entries;
  }

  /**
   * FENCENB ({@link FenceRequest}): directives {@code pmix.collect} BOOL and {@code pmix.timeout}
   * seconds. No procs means the caller's namespace. Answered {@code STATUS} only, with or without
   * collect, once the fence completes.
   */
  void fence(Exchange x) throws BadRequest {
    FenceRequest request = FenceRequest.read(x.in(), x.checks());
    List<Proc> procs = request.procs();
    boolean collect = false;
    long timeoutMs = 0;
    String fenceFor = null;
    for (Info i : request.directives()) {
      switch (i.key()) {
        case PmixKeys.COLLECT_DATA -> collect = Values.bool(i);
        case PmixKeys.TIMEOUT -> timeoutMs = Values.count(i) * 1000L;
        case JdvmProtocol.FENCE_FOR -> fenceFor = Values.string(i);
        default -> {}
      }
    }
    Proc self = x.self();
    if (x.peer().role() != Peer.Role.APPLICATION) {
      throw BadRequest.param("only a launched process takes part in a fence, not " + self);
    }
    if (procs.isEmpty()) {
      procs = List.of(Proc.wildcard(self.nspace()));
    }
    if (!procs.contains(self) && !procs.contains(Proc.wildcard(self.nspace()))) {
      throw BadRequest.param(self + " is not a participant of the fence over " + procs);
    }
    if (fenceFor != null) {
      x.await(
          x.upstream().fenceFor(self, procs, collect, timeoutMs, represented(x, fenceFor)),
          x::replyStatus);
      return;
    }
    x.await(x.upstream().fence(self, procs, collect, timeoutMs), x::replyStatus);
  }

  /** The ranks a FENCE_FOR names, of the caller's namespace; only a node agent may name any. */
  private static List<Proc> represented(Exchange x, String ranks) throws BadRequest {
    if (!x.connection().isCarried()) {
      throw BadRequest.param(
          JdvmProtocol.FENCE_FOR + " is a node agent's, not " + x.self() + "'s to send");
    }
    List<Proc> out = new ArrayList<>();
    for (String r : ranks.isEmpty() ? new String[0] : ranks.split(",", -1)) {
      if (out.size() >= x.limits().namespacesPerRequest()) {
        throw BadRequest.outOfResource("a fence entered for more than its bound of processes");
      }
      try {
        out.add(new Proc(x.self().nspace(), Integer.parseInt(r)));
      } catch (NumberFormatException e) {
        throw BadRequest.param(JdvmProtocol.FENCE_FOR + " must list ranks, not \"" + r + "\"");
      }
    }
    return out;
  }
}
