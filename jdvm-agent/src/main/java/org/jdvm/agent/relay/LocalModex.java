package org.jdvm.agent.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Checks;
import org.jdvm.pmix.body.CommitRequest;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.body.GetReply;
import org.jdvm.pmix.body.StatusReply;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * What this node's processes committed, as the controller accepted it, so that a get of a same-node
 * peer's data is answered on the node (docs/protocol.md "Node agents", docs/wireup.md §c.1, §c.3).
 * Every commit of a local process passes through the relay; it is kept here once the controller
 * answered it {@code SUCCESS} (the process waits for that answer before it enters a fence), with
 * the controller's rules: a LOCAL and a REMOTE buffer per rank, replaced key by key, GLOBAL keys in
 * both.
 *
 * <p>Answered here, exactly as the controller's modex would: a GETNB of a client for a rank of its
 * own namespace on this node (itself included), of a key it sees (then the rank's whole visible
 * blob), of a key committed only in the scope it may not see ({@code PMIX_ERR_NOT_FOUND}), or of
 * every key (a NULL key) of a rank that committed. Everything else goes to the controller: reserved
 * keys (job data), WILDCARD, other namespaces and nodes, and a key not committed yet (the
 * controller waits for it).
 *
 * <p>Assumes a process commits only through its relay, as a libpmix client does: a helper that acts
 * for the process over its own connection to the controller ({@code jdvm.cred}) and commits would
 * change what the controller holds without the relay seeing it.
 *
 * <p>Bounds: what the controller accepted for this node's ranks (it bounds each rank); {@link
 * #MAX_PENDING} commits of one peer waiting for their answer. A job's data goes with {@link
 * #forget}. Thread-safe.
 */
public final class LocalModex {
  /** The most commits of one peer waiting for the controller's answer. */
  static final int MAX_PENDING = 16;

  /** One rank's two buffers. */
  private static final class RankData {
    final Map<String, Value> local = new LinkedHashMap<>();
    final Map<String, Value> remote = new LinkedHashMap<>();
  }

  private record Commit(List<KVal> local, List<KVal> remote) {}

  private final Map<String, Map<Integer, RankData>> data = new HashMap<>();
  private final Map<RelayedSocket, Map<Integer, Commit>> pending = new HashMap<>();
  private long answered;

  /** A COMMIT a local peer sends up: kept aside until the controller answers it. */
  void commitSent(RelayedSocket peer, int tag, byte[] frame) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT) {
      return;
    }
    Commit c = readCommit(who.format(), frame);
    if (c == null) {
      return;
    }
    synchronized (this) {
      Map<Integer, Commit> byTag = pending.computeIfAbsent(peer, k -> new HashMap<>());
      if (byTag.size() < MAX_PENDING) {
        byTag.put(tag, c);
      }
    }
  }

  /** A frame from the controller for {@code peer}: keeps a commit it answered SUCCESS. */
  void reply(RelayedSocket peer, byte[] frame) {
    Commit c;
    synchronized (this) {
      Map<Integer, Commit> byTag = pending.get(peer);
      if (byTag == null || frame.length < FrameHeader.BYTES) {
        return;
      }
      try {
        c = byTag.remove(FrameHeader.decode(frame, 0).tag());
      } catch (WireException e) {
        return; // the peer will see the broken frame; nothing to keep
      }
      if (byTag.isEmpty()) {
        pending.remove(peer);
      }
    }
    if (c == null || status(peer.identity().format(), frame) != PmixStatus.SUCCESS) {
      return;
    }
    Proc p = peer.identity().proc();
    synchronized (this) {
      RankData d =
          data.computeIfAbsent(p.nspace(), k -> new HashMap<>())
              .computeIfAbsent(p.rank(), k -> new RankData());
      c.local().forEach(k -> d.local.put(k.key(), k.value()));
      c.remote().forEach(k -> d.remote.put(k.key(), k.value()));
    }
  }

  /** A peer's connection ended: its commits waiting for an answer go. */
  synchronized void closed(RelayedSocket peer) {
    pending.remove(peer);
  }

  /**
   * The whole frame answering a GETNB here, or {@code null} when the controller answers it.
   *
   * @param localRanks the ranks of the requester's namespace on this node, {@code null} if unknown
   */
  byte[] answer(RelayedSocket peer, int tag, byte[] frame, List<Integer> localRanks) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT || localRanks == null) {
      return null;
    }
    RelayedGet g = RelayedGet.read(who.format(), frame);
    if (g == null
        || !g.target().nspace().equals(who.proc().nspace())
        || !localRanks.contains(g.target().rank())
        || (g.key() != null && g.key().startsWith("pmix"))) {
      return null;
    }
    boolean own = g.target().equals(who.proc());
    List<KVal> visible = new ArrayList<>();
    int status;
    synchronized (this) {
      Map<Integer, RankData> job = data.get(g.target().nspace());
      RankData d = job == null ? null : job.get(g.target().rank());
      if (d == null) {
        return null;
      }
      boolean inLocal = g.key() != null && d.local.containsKey(g.key());
      boolean inRemote = g.key() != null && d.remote.containsKey(g.key());
      if (g.key() == null || inLocal || (own && inRemote)) {
        status = PmixStatus.SUCCESS;
        d.local.forEach((k, v) -> visible.add(new KVal(k, v)));
        if (own) {
          d.remote.forEach(
              (k, v) -> {
                if (!d.local.containsKey(k)) {
                  visible.add(new KVal(k, v));
                }
              });
        }
      } else if (inRemote) {
        status = PmixStatus.ERR_NOT_FOUND; // only in the scope a same-node peer may not see
      } else {
        return null; // not committed yet: the controller waits for it
      }
      answered++;
    }
    GetReply reply =
        status == PmixStatus.SUCCESS
            ? new GetReply(status, List.of(new GetReply.Blob(g.target(), visible)))
            : GetReply.status(status);
    return Frames.of(tag, reply.write(who.format()));
  }

  /** Forgets a job's data (it ended). */
  synchronized void forget(String nspace) {
    data.remove(nspace);
  }

  /** Gets answered here. */
  synchronized long answered() {
    return answered;
  }

  /** A COMMIT's entries per scope, or null when the frame is none or cannot be read. */
  private static Commit readCommit(WireFormat format, byte[] frame) {
    try {
      Unpacker in = Frames.body(format, frame);
      if (in == null || in.unpackCommand() != CommitRequest.COMMAND) {
        return null;
      }
      CommitRequest commit = CommitRequest.read(in, Checks.NONE);
      return commit.scopesKnown()
          ? new Commit(kvals(commit.local()), kvals(commit.remote()))
          : null;
    } catch (WireException | IllegalArgumentException | ClassCastException e) {
      return null;
    }
  }

  private static List<KVal> kvals(List<CommitRequest.Entry> entries) {
    List<KVal> out = new ArrayList<>(entries.size());
    for (CommitRequest.Entry e : entries) {
      out.add(e.kval());
    }
    return out;
  }

  private static int status(WireFormat format, byte[] frame) {
    try {
      Unpacker in = Frames.body(format, frame);
      return in == null ? PmixStatus.ERROR : StatusReply.read(in).status();
    } catch (WireException | IllegalArgumentException e) {
      return PmixStatus.ERROR;
    }
  }
}
