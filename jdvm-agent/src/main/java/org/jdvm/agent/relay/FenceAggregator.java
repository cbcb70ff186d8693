package org.jdvm.agent.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.Checks;
import org.jdvm.pmix.body.FenceRequest;
import org.jdvm.pmix.body.Frames;
import org.jdvm.pmix.body.StatusReply;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * A node's fence entries, gathered (docs/protocol.md "Node agents", docs/wireup.md §c.2): a relay
 * holds its local participants' FENCENBs until every local participant has entered (or ended), then
 * enters the controller's fence once for all of them, on the last entrant's connection with {@link
 * JdvmProtocol#FENCE_FOR} naming the others, and answers each local entrant with the one status
 * that comes back. The controller then reads one message per node and fence instead of one per
 * process.
 *
 * <p>Gathered: fences of one namespace (the caller's; WILDCARD or named ranks) whose ranks on this
 * node the relay knows from the job data it holds. Anything else (other namespaces, unknown
 * locality, an undecodable body) goes to the controller as it is, and so does an entrant whose
 * {@code pmix.collect} disagrees with the first local one (the controller then refuses the fence
 * {@code PMIX_ERR_INVALID_ARG}, as without gathering). Answered here: an entrant already waiting in
 * the fence, and a process's own {@code jdvm.fence.for} ({@code PMIX_ERR_BAD_PARAM}); a local
 * {@code pmix.timeout} that runs out before the node's entry went up ({@code PMIX_ERR_TIMEOUT}).
 *
 * <p>A local participant that ended (the agent tells, {@link #procsEnded}; or its connection closed
 * before it entered) is not waited for; the controller learns of its end itself and answers {@code
 * PMIX_ERR_PARTIAL_SUCCESS}. The connection that carried the node's entry stays open at the
 * controller until the answer came, so the others are answered even if its process ended.
 *
 * <p>Bounds: {@link #MAX_OPEN} fences gathering at once (past it, entries go to the controller one
 * by one). Thread-safe; frames are written outside the lock.
 */
public final class FenceAggregator {
  /** The most fences gathering at once. */
  static final int MAX_OPEN = 1_024;

  /** Sends a frame upward for a local peer (the relay's link). */
  interface Up {
    void send(RelayedSocket carrier, byte[] frame);
  }

  private record Entrant(RelayedSocket peer, int tag) {}

  /** One fence this node's participants are gathering for. */
  private static final class Gather {
    final String nspace;

    /** As the first local entrant named them (none: its namespace), for the node's entry. */
    final List<Proc> procs;

    final Set<Integer> local;
    final boolean collect;
    final Map<Integer, Entrant> entered = new LinkedHashMap<>();
    final Set<Integer> elsewhere = new HashSet<>();
    List<Info> infos;
    ScheduledFuture<?> timer;
    Entrant carrier;

    Gather(String nspace, List<Proc> procs, Set<Integer> local, boolean collect) {
      this.nspace = nspace;
      this.procs = procs;
      this.local = local;
      this.collect = collect;
    }
  }

  /** A FENCENB as the relay read it. */
  private record Fence(List<Proc> procs, List<Info> infos, boolean collect, long timeoutMs) {}

  private final JobDataCache jobData;
  private final ScheduledExecutorService timer;
  private final Up up;
  private final Map<List<Proc>, Gather> open = new HashMap<>();
  private final Map<String, Set<Integer>> gone = new LinkedHashMap<>();
  private final Map<RelayedSocket, Map<Integer, Gather>> awaiting = new HashMap<>();
  private long gathered;
  private long sent;

  FenceAggregator(JobDataCache jobData, ScheduledExecutorService timer, Up up) {
    this.jobData = jobData;
    this.timer = timer;
    this.up = up;
  }

  /**
   * A frame of a local peer: taken when it is a fence entry this node gathers (held or answered
   * here).
   *
   * @return whether the frame was taken; if not, the relay sends it on
   */
  boolean enter(RelayedSocket peer, int tag, byte[] frame) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT) {
      return false;
    }
    Fence f = read(who, frame);
    if (f == null) {
      return false;
    }
    if (f.infos().stream().anyMatch(i -> i.key().equals(JdvmProtocol.FENCE_FOR))) {
      answer(new Entrant(peer, tag), PmixStatus.ERR_BAD_PARAM);
      return true;
    }
    Proc self = who.proc();
    List<Proc> procs = f.procs().isEmpty() ? List.of(Proc.wildcard(self.nspace())) : f.procs();
    Set<Integer> local = localParticipants(self, procs);
    if (local == null || !local.contains(self.rank())) {
      return false; // not gathered here: the controller decides
    }
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      List<Proc> key = sorted(procs);
      Gather g = open.get(key);
      if (g == null) {
        if (open.size() >= MAX_OPEN) {
          return false;
        }
        g = new Gather(self.nspace(), f.procs(), local, f.collect());
        open.put(key, g);
        gathered++;
      }
      if (g.entered.containsKey(self.rank())) {
        after.add(() -> answer(new Entrant(peer, tag), PmixStatus.ERR_BAD_PARAM));
      } else if (g.collect != f.collect()) {
        g.elsewhere.add(self.rank());
        after.add(() -> up.send(peer, frame)); // the controller sees the disagreement
      } else {
        g.entered.put(self.rank(), new Entrant(peer, tag));
        g.infos = f.infos();
        if (f.timeoutMs() > 0 && g.timer == null) {
          Gather timed = g;
          g.timer = timer.schedule(() -> expire(key, timed), f.timeoutMs(), TimeUnit.MILLISECONDS);
        }
      }
      after.addAll(sendIfComplete(key, g));
    }
    after.forEach(Runnable::run);
    return true;
  }

  /** This node's participants of a fence of {@code self}'s namespace; null when not gathered. */
  private Set<Integer> localParticipants(Proc self, List<Proc> procs) {
    List<Integer> here = jobData.localRanks(self.nspace());
    if (here == null) {
      return null;
    }
    Set<Integer> local = new TreeSet<>();
    for (Proc p : procs) {
      if (!p.nspace().equals(self.nspace())) {
        return null;
      }
      if (p.rank() == Proc.RANK_WILDCARD) {
        local.addAll(here);
      } else if (here.contains(p.rank())) {
        local.add(p.rank());
      }
    }
    return local;
  }

  /** Sends the node's entry once every local participant is accounted for; what to run after. */
  private List<Runnable> sendIfComplete(List<Proc> key, Gather g) {
    Set<Integer> ended = gone.getOrDefault(g.nspace, Set.of());
    for (int rank : g.local) {
      if (!g.entered.containsKey(rank) && !g.elsewhere.contains(rank) && !ended.contains(rank)) {
        return List.of();
      }
    }
    open.remove(key);
    if (g.timer != null) {
      g.timer.cancel(false);
    }
    if (g.entered.isEmpty()) {
      return List.of();
    }
    List<Entrant> entrants = new ArrayList<>(g.entered.values());
    Entrant carrier = entrants.getLast();
    g.carrier = carrier;
    awaiting.computeIfAbsent(carrier.peer(), k -> new HashMap<>()).put(carrier.tag(), g);
    sent++;
    String others =
        g.entered.keySet().stream()
            .filter(r -> !g.entered.get(r).equals(carrier))
            .map(String::valueOf)
            .collect(Collectors.joining(","));
    List<Info> infos = new ArrayList<>(g.infos);
    infos.add(Info.of(JdvmProtocol.FENCE_FOR, Value.string(others)));
    byte[] body = new FenceRequest(g.procs, infos).write(carrier.peer().identity().format());
    byte[] frame = Frames.of(carrier.tag(), body);
    return List.of(() -> up.send(carrier.peer(), frame));
  }

  /**
   * A frame from the controller for {@code peer}: taken when it answers a node's entry, and then
   * given to every local entrant on its own tag.
   */
  boolean reply(RelayedSocket peer, byte[] frame) {
    if (frame.length < FrameHeader.BYTES) {
      return false;
    }
    Gather g;
    synchronized (this) {
      Map<Integer, Gather> byTag = awaiting.get(peer);
      if (byTag == null) {
        return false;
      }
      int tag;
      try {
        tag = FrameHeader.decode(frame, 0).tag();
      } catch (WireException e) {
        return false;
      }
      g = byTag.remove(tag);
      if (g == null) {
        return false;
      }
      if (byTag.isEmpty()) {
        awaiting.remove(peer);
      }
    }
    byte[] body = new byte[frame.length - FrameHeader.BYTES];
    System.arraycopy(frame, FrameHeader.BYTES, body, 0, body.length);
    for (Entrant e : g.entered.values()) {
      e.peer().write(Frames.of(e.tag(), body));
    }
    return true;
  }

  /**
   * The controller closed {@code carrier} while it carried node entries: their answers will not
   * come, so the other local entrants are told {@code PMIX_ERR_LOST_CONNECTION} (their entries stay
   * in the controller's fence, so they cannot be sent again).
   */
  void carrierLost(RelayedSocket carrier) {
    Map<Integer, Gather> lost;
    synchronized (this) {
      lost = awaiting.remove(carrier);
    }
    if (lost == null) {
      return;
    }
    for (Gather g : lost.values()) {
      for (Entrant e : g.entered.values()) {
        if (e.peer() != carrier) {
          answer(e, PmixStatus.ERR_LOST_CONNECTION);
        }
      }
    }
  }

  /** Whether {@code peer} carries a node's entry whose answer has not come yet. */
  synchronized boolean carries(RelayedSocket peer) {
    return awaiting.containsKey(peer);
  }

  /**
   * A local peer's connection ended: a participant that had not entered is not waited for (its
   * process is ending; the controller learns it). Entries it made stay.
   */
  void closed(RelayedSocket peer) {
    PeerIdentity who = peer.identity();
    if (who.kind() != PeerIdentity.Kind.CLIENT) {
      return;
    }
    procsEnded(who.proc().nspace(), List.of(who.proc().rank()));
  }

  /** Local processes ended: no gathering fence waits for them. */
  void procsEnded(String nspace, List<Integer> ranks) {
    List<Runnable> after = new ArrayList<>();
    synchronized (this) {
      gone.computeIfAbsent(nspace, k -> new HashSet<>()).addAll(ranks);
      if (gone.size() > MAX_OPEN) { // jobs the agent never said ended: the oldest go
        gone.remove(gone.keySet().iterator().next());
      }
      for (Map.Entry<List<Proc>, Gather> e : List.copyOf(open.entrySet())) {
        if (e.getValue().nspace.equals(nspace)) {
          after.addAll(sendIfComplete(e.getKey(), e.getValue()));
        }
      }
    }
    after.forEach(Runnable::run);
  }

  /**
   * A job ended: its record of ended ranks goes, and so do the node entries of its fences still
   * waiting for an answer (the controller gives none once every entrant is gone).
   *
   * @return the carriers no longer waiting for an answer
   */
  synchronized List<RelayedSocket> jobEnded(String nspace) {
    gone.remove(nspace);
    open.values().removeIf(g -> g.nspace.equals(nspace));
    List<RelayedSocket> released = new ArrayList<>();
    for (Map.Entry<RelayedSocket, Map<Integer, Gather>> e : List.copyOf(awaiting.entrySet())) {
      e.getValue().values().removeIf(g -> g.nspace.equals(nspace));
      if (e.getValue().isEmpty()) {
        awaiting.remove(e.getKey());
        released.add(e.getKey());
      }
    }
    return released;
  }

  private void expire(List<Proc> key, Gather g) {
    List<Entrant> entrants;
    synchronized (this) {
      if (open.get(key) != g) {
        return; // went up already: the controller keeps the time
      }
      open.remove(key);
      entrants = List.copyOf(g.entered.values());
    }
    for (Entrant e : entrants) {
      answer(e, PmixStatus.ERR_TIMEOUT);
    }
  }

  /** Fences gathered, and node entries sent up. */
  synchronized long[] counts() {
    return new long[] {gathered, sent};
  }

  private static void answer(Entrant e, int status) {
    PeerIdentity who = e.peer().identity();
    e.peer().write(Frames.of(e.tag(), new StatusReply(status).write(who.format())));
  }

  /** The fence a FENCENB frame carries, or null when it is none the relay can read. */
  private static Fence read(PeerIdentity who, byte[] frame) {
    try {
      Unpacker in = Frames.body(who.format(), frame);
      if (in == null || in.unpackCommand() != FenceRequest.COMMAND) {
        return null;
      }
      FenceRequest request = FenceRequest.read(in, Checks.NONE);
      boolean collect = false;
      long timeoutMs = 0;
      for (Info i : request.directives()) {
        if (i.key().equals(PmixKeys.COLLECT_DATA) && i.value().data() instanceof Boolean b) {
          collect = b;
        } else if (i.key().equals(PmixKeys.TIMEOUT) && i.value().data() instanceof Number t) {
          timeoutMs = t.longValue() * 1000L;
        }
      }
      return in.hasRemaining()
          ? null
          : new Fence(request.procs(), request.directives(), collect, timeoutMs);
    } catch (WireException | IllegalArgumentException | ClassCastException e) {
      return null; // the controller answers what it cannot read either
    }
  }

  private static List<Proc> sorted(List<Proc> procs) {
    List<Proc> s = new ArrayList<>(new TreeSet<>(procs));
    return List.copyOf(s);
  }
}
