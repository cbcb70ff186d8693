package org.jdvm.agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;

/**
 * Reports go out on the current link, or wait for the next one: exits up to {@link
 * AgentDaemon#MAX_HELD_EXITS}, output up to {@link AgentDaemon#MAX_HELD_OUTPUT_BYTES} (the rest is
 * dropped and counted).
 *
 * <p>It also keeps each job's output credit (docs/ARCHITECTURE.md "Output back-pressure"): the
 * bytes of the job's output sent on the current link, or held for the next, that the controller has
 * not credited back ({@link LinkMessage.OutputCredit}). From {@link
 * LinkMessage.OutputCredit#WINDOW_BYTES} on, {@link #holdOutput} says to stop reading the job's
 * pipes until credit comes back; a new link starts with none owed (what is held for it is counted
 * again as it goes out), so a pause can never outlive its link.
 */
final class Outbox {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  private final ArrayDeque<LinkMessage> held = new ArrayDeque<>();

  /**
   * The last exits sent on a link, at most {@link #RECENT_EXITS}: a link can take a write and die
   * before the controller read it (its process killed), so each hello names them again with the
   * held ones. A controller ignores an exit of a process it no longer counts (it had the report),
   * so naming one twice is harmless; not naming one lost it (the process then counted as killed).
   */
  private final ArrayDeque<LinkMessage.Exited> recentExits = new ArrayDeque<>();

  /** How many sent exits the next hello names again. */
  static final int RECENT_EXITS = 4096;

  private Link current;
  private long heldOutputBytes;
  private long droppedOutputBytes;
  private final Map<String, Long> uncredited = new HashMap<>();
  private final Map<String, List<Runnable>> waiting = new HashMap<>();

  synchronized void send(LinkMessage m) {
    if (current != null && held.isEmpty() && current.send(m)) {
      spent(m);
      return;
    }
    hold(m);
  }

  private void hold(LinkMessage m) {
    if (m instanceof LinkMessage.Output o) {
      if (heldOutputBytes + o.chunk().length > AgentDaemon.MAX_HELD_OUTPUT_BYTES) {
        droppedOutputBytes += o.chunk().length;
        return;
      }
      heldOutputBytes += o.chunk().length;
      spent(m);
    } else if (held.size() >= AgentDaemon.MAX_HELD_EXITS) {
      return;
    }
    held.add(m);
  }

  /**
   * What the next hello says ended: the exits sent on a link that may have died before the
   * controller read them, then the ones held, in order.
   */
  synchronized List<LinkMessage.Exited> exitsForHello() {
    List<LinkMessage.Exited> out = new ArrayList<>(recentExits);
    out.addAll(heldExits());
    return out;
  }

  /** The exit reports held for the next link, in order. */
  public synchronized List<LinkMessage.Exited> heldExits() {
    List<LinkMessage.Exited> out = new ArrayList<>();
    for (LinkMessage m : held) {
      if (m instanceof LinkMessage.Exited x) {
        out.add(x);
      }
    }
    return out;
  }

  /** Drops held exit reports the controller received another way (a hello). */
  synchronized void forget(List<LinkMessage.Exited> sent) {
    Set<LinkMessage> gone = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    gone.addAll(sent);
    held.removeIf(gone::contains);
    recentExits.removeIf(gone::contains);
  }

  /** Counts what went out on the current link: output against its job's credit, exits as recent. */
  private void spent(LinkMessage m) {
    if (m instanceof LinkMessage.Output o) {
      uncredited.merge(o.nspace(), (long) o.chunk().length, Long::sum);
    } else if (m instanceof LinkMessage.Exited x) {
      if (recentExits.size() == RECENT_EXITS) {
        recentExits.poll();
      }
      recentExits.add(x);
    }
  }

  /**
   * Asked after each chunk of a process of {@code nspace}: whether to stop reading its pipes, the
   * job's window being spent; {@code resume} then runs once credit (or a new link) comes.
   */
  synchronized boolean holdOutput(String nspace, Runnable resume) {
    if (uncredited.getOrDefault(nspace, 0L) < LinkMessage.OutputCredit.WINDOW_BYTES) {
      return false;
    }
    waiting.computeIfAbsent(nspace, k -> new ArrayList<>()).add(resume);
    return true;
  }

  /**
   * The controller credited {@code c}'s bytes back on {@code l}: ignored from a link that is not
   * the current one, and for a job that owes nothing (it ended, or its link was replaced).
   */
  synchronized void credit(Link l, LinkMessage.OutputCredit c) {
    Long owed = uncredited.get(c.nspace());
    if (l != current || owed == null) {
      return;
    }
    long left = owed - Math.max(0, c.bytes());
    if (left > 0) {
      uncredited.put(c.nspace(), left);
    } else {
      uncredited.remove(c.nspace());
    }
    resumeDue();
  }

  /** Resumes the processes of every job whose window is open again. */
  private void resumeDue() {
    var it = waiting.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      if (uncredited.getOrDefault(e.getKey(), 0L) < LinkMessage.OutputCredit.WINDOW_BYTES) {
        it.remove();
        e.getValue().forEach(Runnable::run); // the poller's resume: it only queues and wakes
      }
    }
  }

  synchronized void attach(Link l) {
    uncredited.clear(); // a new link: nothing is owed on it but what goes out below
    if (droppedOutputBytes > 0) {
      LOG.log(
          System.Logger.Level.WARNING,
          droppedOutputBytes + " bytes of output dropped while the controller was unreachable");
      droppedOutputBytes = 0;
    }
    while (!held.isEmpty()) {
      if (!l.send(held.peek())) {
        return;
      }
      spent(held.peek());
      if (held.poll() instanceof LinkMessage.Output o) {
        heldOutputBytes -= o.chunk().length;
      }
    }
    current = l;
    resumeDue();
  }

  synchronized void detach(Link l) {
    if (current == l) {
      current = null;
    }
  }
}
