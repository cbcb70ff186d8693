package org.jdvm.server.agents;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jdvm.agent.link.Link;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.host.NodeEvents;

/**
 * The controller's side of output credit on one agent link (docs/ARCHITECTURE.md "Output
 * back-pressure"): after each chunk of a job's output it has passed on, it asks the shell the same
 * {@link NodeEvents#holdOutput} a local process's chunk is asked; if the job's readers are not
 * behind it credits the chunk back to the agent ({@link LinkMessage.OutputCredit}), else it
 * withholds the job's credit — what arrives meanwhile included — until the readers resume it, and
 * then credits it all. An agent stops reading a job's pipes once {@link
 * LinkMessage.OutputCredit#WINDOW_BYTES} of it are uncredited, so that is what a stopped reader can
 * still be sent past its mark. Credits go out on a virtual thread of their own, coalesced, so the
 * link's reader and a connection's writer that resumes never block on the link.
 */
final class OutputCredits {
  private final String node;
  private final Link link;
  private final Map<String, Long> owed = new HashMap<>();
  private final Set<String> withheld = new HashSet<>();
  private final Map<String, Long> due = new LinkedHashMap<>();
  private boolean sending;

  OutputCredits(String node, Link link) {
    this.node = node;
    this.link = link;
  }

  /** {@code bytes} of {@code nspace}'s output arrived on the link and went to {@code events}. */
  void received(String nspace, int bytes, NodeEvents events) {
    synchronized (this) {
      owed.merge(nspace, (long) bytes, Long::sum);
      if (!withheld.add(nspace)) {
        return; // paused: its credit waits for the readers
      }
    }
    // Only the link's reader gets here, so one job is asked by one thread at a time.
    if (events == null || !events.holdOutput(node, nspace, () -> release(nspace))) {
      release(nspace);
    }
  }

  /** Credits back what {@code nspace} is owed, once. */
  private void release(String nspace) {
    synchronized (this) {
      if (!withheld.remove(nspace)) {
        return;
      }
      Long n = owed.remove(nspace);
      if (n != null) {
        due.merge(nspace, n, Long::sum);
      }
      if (sending || due.isEmpty()) {
        return;
      }
      sending = true;
    }
    Thread.ofVirtual().name("jdvm-credit-" + node).start(this::sendDue);
  }

  private void sendDue() {
    while (true) {
      Map<String, Long> now;
      synchronized (this) {
        if (due.isEmpty()) {
          sending = false;
          return;
        }
        now = new LinkedHashMap<>(due);
        due.clear();
      }
      // A closed link sends nothing: its agent starts the next link with every window full.
      now.forEach((nspace, n) -> link.send(new LinkMessage.OutputCredit(nspace, n)));
    }
  }

  /** The output of jobs whose credit is withheld, for tests and listings. */
  synchronized long withheldBytes() {
    long n = 0;
    for (String nspace : withheld) {
      n += owed.getOrDefault(nspace, 0L);
    }
    return n;
  }
}
