package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.query.CoreView;
import org.jdvm.endpoint.serve.Upstream.Got;
import org.jdvm.endpoint.wireup.Blob;
import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.endpoint.wireup.Visibility;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * What a get ({@code PMIx_Get}) needs from the core: an answer already (job data, a reserved key,
 * nothing there), or which committed data to wait for ({@code visibility}) and what goes before it
 * ({@code first}: the target job's data; {@code procData}: the target's own).
 */
record GetPlan(Got answer, Visibility visibility, List<Blob> first, List<KVal> procData) {
  /**
   * The plan of a get of a peer's committed data (same job, a rank, not a reserved key) from the
   * placements already known, without asking the controller: MPI_Init makes N·(N−1) of them. {@code
   * null} when the placements are not known yet.
   */
  static GetPlan ofPeer(
      Map<String, List<String>> placements, Proc requester, Proc target, String key) {
    if (target.rank() == Proc.RANK_WILDCARD
        || !requester.nspace().equals(target.nspace())
        || (key != null && key.startsWith(ModexStore.RESERVED_PREFIX))) {
      return null;
    }
    List<String> nodes = placements.get(target.nspace());
    if (nodes == null) {
      return null;
    }
    if (target.rank() < 0 || target.rank() >= nodes.size()) {
      return new GetPlan(new Got(PmixStatus.ERR_NOT_FOUND, List.of()), null, null, null);
    }
    Visibility visibility;
    if (requester.equals(target)) {
      visibility = Visibility.OWN;
    } else {
      boolean sameNode =
          requester.rank() >= 0
              && requester.rank() < nodes.size()
              && nodes.get(requester.rank()).equals(nodes.get(target.rank()));
      visibility = sameNode ? Visibility.LOCAL : Visibility.REMOTE;
    }
    return new GetPlan(null, visibility, List.of(), List.of());
  }

  /** The plan of any get, from the core's views (on the controller thread). */
  static GetPlan of(
      CoreView v,
      Map<String, List<String>> placements,
      ClientData.Extras extras,
      Proc requester,
      Proc target,
      String key) {
    List<String> nodes = ClientData.placement(v, target.nspace());
    if (nodes != null) {
      placements.putIfAbsent(target.nspace(), nodes);
    }
    if (target.rank() == Proc.RANK_WILDCARD) {
      return ofJob(v, extras, target, key);
    }
    Optional<List<KVal>> procData = ClientData.procBlob(v, target, extras);
    if (procData.isEmpty()) {
      return new GetPlan(new Got(PmixStatus.ERR_NOT_FOUND, List.of()), null, null, null);
    }
    Visibility visibility = visibility(v, requester, target);
    boolean sameJob = requester.nspace().equals(target.nspace());
    boolean reserved = key != null && key.startsWith(ModexStore.RESERVED_PREFIX);
    if (sameJob && reserved) {
      // A reserved key of a peer is job data, which the client got at init: answer from it.
      List<KVal> kvals = withKey(procData.get(), key);
      return new GetPlan(
          kvals.isEmpty()
              ? new Got(PmixStatus.ERR_NOT_FOUND, List.of())
              : new Got(PmixStatus.SUCCESS, List.of(new Blob(target, kvals))),
          null,
          null,
          null);
    }
    if (sameJob) {
      return new GetPlan(null, visibility, List.of(), List.of());
    }
    List<Blob> first =
        List.of(
            new Blob(
                Proc.wildcard(target.nspace()),
                ClientData.jobBlob(v, target.nspace(), extras).orElse(List.of())));
    if (reserved) {
      List<Blob> blobs = new ArrayList<>(first);
      blobs.add(new Blob(target, procData.get()));
      return new GetPlan(new Got(PmixStatus.SUCCESS, blobs), null, null, null);
    }
    return new GetPlan(null, visibility, first, procData.get());
  }

  /** A get of a job's own data (rank wildcard): answered from the core's views at once. */
  private static GetPlan ofJob(CoreView v, ClientData.Extras extras, Proc target, String key) {
    Optional<List<KVal>> job = ClientData.jobBlob(v, target.nspace(), extras);
    if (job.isEmpty()) {
      return new GetPlan(new Got(PmixStatus.ERR_NOT_FOUND, List.of()), null, null, null);
    }
    List<KVal> kvals = key == null ? job.get() : withKey(job.get(), key);
    List<Blob> blobs = kvals.isEmpty() ? List.of() : List.of(new Blob(target, kvals));
    return new GetPlan(new Got(PmixStatus.SUCCESS, blobs), null, null, null);
  }

  /** Which of the target's committed data the requester may see: its own, its node's, or remote. */
  private static Visibility visibility(CoreView v, Proc requester, Proc target) {
    if (requester.equals(target)) {
      return Visibility.OWN;
    }
    String here = ClientData.nodeOf(v, requester);
    return here != null && here.equals(ClientData.nodeOf(v, target))
        ? Visibility.LOCAL
        : Visibility.REMOTE;
  }

  /** The answer, once the committed data {@code fetched} arrived. */
  Got combine(Proc target, ModexStore.Fetched fetched) {
    if (fetched.status() != PmixStatus.SUCCESS) {
      return new Got(fetched.status(), List.of());
    }
    List<Blob> blobs = new ArrayList<>(first);
    List<KVal> kvals = new ArrayList<>(procData);
    kvals.addAll(fetched.kvals());
    blobs.add(new Blob(target, kvals));
    return new Got(PmixStatus.SUCCESS, blobs);
  }

  /** The entries under {@code key}, or the node and app arrays that hold it. */
  static List<KVal> withKey(List<KVal> kvals, String key) {
    List<KVal> hits = new ArrayList<>();
    for (KVal k : kvals) {
      if (k.key().equals(key)) {
        hits.add(k);
      }
    }
    if (!hits.isEmpty()) {
      return hits;
    }
    for (KVal k : kvals) {
      if (k.value().type() == DataType.DATA_ARRAY
          && k.value().asArray().type() == DataType.INFO
          && k.value().asArray().elementsAs(Info.class).stream()
              .anyMatch(i -> i.key().equals(key))) {
        hits.add(k);
      }
    }
    return hits;
  }
}
