package org.jdvm.agent.relay;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.body.GetReply;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * The agent's cache of other ranks' data (docs/protocol.md "Node agents"): a get that a local
 * process asked of the controller brings back the target rank's whole visible blob, which is kept
 * here, so that the next local process asking for a key in it is answered on the node. What a
 * rank's data looks like to a requester depends only on whether the requester runs on the target's
 * node and whether it is the target itself (docs/wireup.md §c.3); every requester here runs on this
 * node, so one blob serves them all, the target itself excepted (it also sees its own REMOTE-only
 * keys, and asks for them rarely).
 *
 * <p>Answered here: a client's GETNB of a named key (not a reserved {@code pmix…} one) of a named
 * rank of its own namespace, other than itself, when the kept blob holds the key. Everything else
 * goes to the controller: a key the blob lacks (it may be committed later, and the controller
 * waits), every key at once, WILDCARD, other namespaces. A fence of the namespace passing this
 * relay, in or out, forgets the namespace's blobs ({@link #forget}): data committed before a fence
 * is what a get after it must see, so what was kept before a fence is not trusted after it.
 *
 * <p>Bounds: at most {@link #MAX_BYTES} of blobs (their keys' and values' sizes, as the body
 * carried them); past it, the namespace kept longest goes whole; {@link #MAX_PENDING} gets of one
 * peer waiting for their answer. Thread-safe.
 */
public final class GetCache {
  /** The most bytes of blobs kept. */
  static final long MAX_BYTES = 64L << 20;

  /** The most gets of one peer waiting for the controller's answer. */
  static final int MAX_PENDING = 64;

  /** A get waiting for the controller's answer; a {@code null} target marks a fence's entry. */
  private record Kept(List<KVal> kvals, long bytes) {}

  /** Namespaces in the order their first blob was kept: the oldest goes first. */
  private final Map<String, Map<Integer, Kept>> kept = new LinkedHashMap<>();

  private final Map<RelayedSocket, Map<Integer, RelayedGet>> pending = new HashMap<>();
  private long bytes;
  private long answered;

  /**
   * The whole frame answering a GETNB here, or {@code null} when the controller answers it (then
   * its answer is watched for, {@link #reply}).
   */
  byte[] answer(RelayedSocket peer, int tag, byte[] frame) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT) {
      return null;
    }
    RelayedGet g = RelayedGet.read(who.format(), frame);
    if (g == null
        || g.key() == null
        || g.key().startsWith("pmix")
        || !g.target().nspace().equals(who.proc().nspace())
        || g.target().equals(who.proc())) {
      return null;
    }
    List<KVal> blob;
    synchronized (this) {
      Map<Integer, Kept> job = kept.get(g.target().nspace());
      Kept k = job == null ? null : job.get(g.target().rank());
      if (k == null || k.kvals().stream().noneMatch(kv -> kv.key().equals(g.key()))) {
        Map<Integer, RelayedGet> byTag = pending.computeIfAbsent(peer, p -> new HashMap<>());
        if (byTag.size() < MAX_PENDING) {
          byTag.put(tag, g);
        }
        return null;
      }
      blob = k.kvals();
      answered++;
    }
    GetReply reply = new GetReply(PmixStatus.SUCCESS, List.of(new GetReply.Blob(g.target(), blob)));
    return Frames.of(tag, reply.write(who.format()));
  }

  /** A frame from the controller for {@code peer}: keeps the blob a watched get brought. */
  void reply(RelayedSocket peer, byte[] frame) {
    RelayedGet g;
    synchronized (this) {
      Map<Integer, RelayedGet> byTag = pending.get(peer);
      if (byTag == null || frame.length < FrameHeader.BYTES) {
        return;
      }
      try {
        g = byTag.remove(FrameHeader.decode(frame, 0).tag());
      } catch (WireException e) {
        return;
      }
      if (byTag.isEmpty()) {
        pending.remove(peer);
      }
    }
    if (g == null) {
      return;
    }
    if (g.target() == null) {
      forget(peer.identity().proc().nspace()); // the fence completed: what was kept may be old
      return;
    }
    GetReply reply = readReply(peer.identity().format(), frame);
    if (reply == null || reply.status() != PmixStatus.SUCCESS) {
      return;
    }
    for (GetReply.Blob b : reply.blobs()) {
      if (b.proc().equals(g.target())) {
        keep(b.proc(), b.kvals(), frame.length);
      }
    }
  }

  private synchronized void keep(Proc p, List<KVal> kvals, long size) {
    if (size > MAX_BYTES) {
      return;
    }
    Kept old =
        kept.computeIfAbsent(p.nspace(), k -> new HashMap<>()).put(p.rank(), new Kept(kvals, size));
    bytes += size - (old == null ? 0 : old.bytes());
    while (bytes > MAX_BYTES) {
      forgetLocked(kept.keySet().iterator().next());
    }
  }

  /**
   * A local peer enters a fence of its namespace: the namespace's blobs are forgotten now, and,
   * when {@code watch} (the fence goes up as it is, not gathered here), again when its answer
   * passes.
   */
  void fenceEntered(RelayedSocket peer, int tag, boolean watch) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT) {
      return;
    }
    synchronized (this) {
      forgetLocked(who.proc().nspace());
      Map<Integer, RelayedGet> byTag = pending.computeIfAbsent(peer, p -> new HashMap<>());
      if (watch && byTag.size() < MAX_PENDING) {
        byTag.put(tag, new RelayedGet(null, null));
      }
    }
  }

  /** A peer's connection ended: its gets waiting for an answer go. */
  synchronized void closed(RelayedSocket peer) {
    pending.remove(peer);
  }

  /** Forgets a namespace's blobs: a fence of it passed, or the job ended. */
  synchronized void forget(String nspace) {
    forgetLocked(nspace);
  }

  private void forgetLocked(String nspace) {
    Map<Integer, Kept> job = kept.remove(nspace);
    if (job != null) {
      job.values().forEach(k -> bytes -= k.bytes());
    }
  }

  /** Gets answered here. */
  synchronized long answered() {
    return answered;
  }

  /** Bytes of blobs kept. */
  synchronized long bytes() {
    return bytes;
  }

  private static GetReply readReply(WireFormat format, byte[] frame) {
    try {
      Unpacker in = Frames.body(format, frame);
      return in == null ? null : GetReply.read(in);
    } catch (WireException | IllegalArgumentException | ClassCastException e) {
      return null;
    }
  }
}
