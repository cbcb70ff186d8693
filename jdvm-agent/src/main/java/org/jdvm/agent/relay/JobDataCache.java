package org.jdvm.agent.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.body.JobDataReply;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * The job data a node agent answers itself (docs/protocol.md "Node agents"): the REQ reply a
 * process of a job gets at {@code PMIx_Init} is the same for every process of that job on one node
 * (docs/protocol.md "Job data": the job level, every node's and rank's arrays, and the caller's own
 * node's keys), so the first reply the controller sent for a namespace, in one wire format, answers
 * every later REQ of that namespace's processes on this node without a round trip. A reply that
 * carries no job data (only the namespace) is not kept.
 *
 * <p>Bounds: at most {@link #MAX_NAMESPACES} namespaces and {@link #MAX_BYTES} of replies; past
 * either the least recently used go. A job's entry goes when the agent learns it ended ({@link
 * PmixRelay#jobEnded}). Thread-safe.
 */
public final class JobDataCache {
  static final int MAX_NAMESPACES = 1_024;
  static final long MAX_BYTES = 64L << 20;

  private record Key(String nspace, WireFormat format) {}

  private final Map<Key, byte[]> replies = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<String, List<Integer>> localRanks = new HashMap<>();
  private long bytes;
  private long hits;
  private long misses;

  /**
   * The whole frame answering a peer's frame, when it is a REQ this cache can answer; otherwise
   * {@code null} (a REQ is then remembered, so that its reply is kept).
   */
  byte[] answer(RelayedSocket peer, int tag, byte[] frame) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT
        || Frames.command(who.format(), frame) != JobDataReply.COMMAND) {
      return null;
    }
    byte[] body;
    synchronized (this) {
      body = replies.get(new Key(who.proc().nspace(), who.format()));
      if (body == null) {
        misses++;
      } else {
        hits++;
      }
    }
    if (body == null) {
      peer.awaitsJobData(tag);
      return null;
    }
    return Frames.of(tag, body);
  }

  /**
   * Keeps the controller's reply to a REQ the peer is waiting for.
   *
   * @return whether {@code frame} answered a REQ of the peer's
   */
  boolean reply(RelayedSocket peer, byte[] frame) {
    if (frame.length < FrameHeader.BYTES) {
      return false;
    }
    FrameHeader h;
    try {
      h = FrameHeader.decode(frame, 0);
    } catch (WireException e) {
      return false;
    }
    if (!peer.jobDataAnswered(h.tag())) {
      return false;
    }
    PeerIdentity who = peer.identity();
    int bare = new JobDataReply(who.proc().nspace(), List.of()).write(who.format()).length;
    int n = frame.length - FrameHeader.BYTES;
    if (n > bare && n <= MAX_BYTES / 4) {
      byte[] body = new byte[n];
      System.arraycopy(frame, FrameHeader.BYTES, body, 0, n);
      put(new Key(who.proc().nspace(), who.format()), body, localRanks(who.format(), body));
    }
    return true;
  }

  /**
   * The ranks of {@code nspace} on this node (its job data's {@code pmix.lpeers}), or {@code null}
   * when no reply of that namespace is held.
   */
  synchronized List<Integer> localRanks(String nspace) {
    return localRanks.get(nspace);
  }

  /** The {@code pmix.lpeers} of a REQ reply's body, or {@code null} when it has none readable. */
  private static List<Integer> localRanks(WireFormat format, byte[] body) {
    try {
      KVal k =
          JobDataReply.first(
              new Unpacker(format, body),
              kv -> kv.key().equals(PmixKeys.LOCAL_PEERS) && kv.value().data() instanceof String);
      if (k != null) {
        List<Integer> ranks = new ArrayList<>();
        for (String r : ((String) k.value().data()).split(",")) {
          ranks.add(Integer.parseInt(r.trim()));
        }
        return List.copyOf(ranks);
      }
    } catch (WireException | IllegalArgumentException e) {
      // No locality known: fences of this namespace go to the controller one by one.
    }
    return null;
  }

  private synchronized void put(Key key, byte[] body, List<Integer> local) {
    byte[] old = replies.put(key, body);
    bytes += body.length - (old == null ? 0 : old.length);
    if (local != null) {
      localRanks.put(key.nspace(), local);
    }
    Iterator<Map.Entry<Key, byte[]>> eldest = replies.entrySet().iterator();
    while (eldest.hasNext() && (replies.size() > MAX_NAMESPACES || bytes > MAX_BYTES)) {
      Map.Entry<Key, byte[]> e = eldest.next();
      bytes -= e.getValue().length;
      localRanks.remove(e.getKey().nspace());
      eldest.remove();
    }
  }

  /** Forgets a namespace's job data. */
  synchronized void forget(String nspace) {
    localRanks.remove(nspace);
    Iterator<Map.Entry<Key, byte[]>> i = replies.entrySet().iterator();
    while (i.hasNext()) {
      Map.Entry<Key, byte[]> e = i.next();
      if (e.getKey().nspace().equals(nspace)) {
        bytes -= e.getValue().length;
        i.remove();
      }
    }
  }

  /** REQs answered here, and those sent on to the controller. */
  synchronized long[] counts() {
    return new long[] {hits, misses};
  }

  synchronized int size() {
    return replies.size();
  }
}
