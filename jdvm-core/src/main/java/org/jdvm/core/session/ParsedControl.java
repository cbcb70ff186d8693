package org.jdvm.core.session;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.Feature;
import org.jdvm.core.Limits;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Request.SessionControl;
import org.jdvm.core.SessionOp;
import org.jdvm.core.alloc.NodeRequest;
import org.jdvm.core.state.State;
import org.jdvm.pmix.AllocInheritance;

/**
 * A session-control request with every directive read before anything is checked or done.
 *
 * @param timeLimitSeconds from PMIX_ALLOC_TIME, else PMIX_TIMEOUT; {@code null} when neither
 */
record ParsedControl(
    SessionControl request,
    SessionOp op,
    Long timeLimitSeconds,
    boolean badTime,
    AllocInheritance inheritance,
    boolean inheritanceRefused,
    NodeRequest nodes) {

  static ParsedControl of(SessionControl r, State state) {
    Long limit = null;
    boolean badTime = false;
    if (r.allocTimeSeconds() != null) {
      long s = r.allocTimeSeconds();
      badTime = s < 0 || s > Limits.MAX_SECONDS;
      limit = badTime ? null : s;
    } else if (r.timeoutSeconds() != null) {
      badTime = r.timeoutSeconds() < 0 || r.timeoutSeconds() > Limits.MAX_SECONDS;
      limit = r.timeoutSeconds();
    }
    AllocInheritance inheritance =
        r.inheritance() == null ? null : AllocInheritance.fromCode(r.inheritance());
    boolean refused =
        r.inheritance() != null
            && (inheritance == null
                || !state.config().enabled(Feature.INHERITANCE)
                    && inheritance != AllocInheritance.DEFAULT);
    NodeRequest nodes = NodeRequest.of(names(r.nodes()), state);
    return new ParsedControl(r, r.operation(), limit, badTime, inheritance, refused, nodes);
  }

  static List<String> names(List<NodeSpec> specs) {
    List<String> names = new ArrayList<>(specs.size());
    for (NodeSpec s : specs) {
      names.add(s.name());
    }
    return names;
  }

  /** The listed nodes new to the DVM, with their slots. */
  List<NodeSpec> fresh() {
    List<NodeSpec> fresh = new ArrayList<>();
    Set<String> absent = new HashSet<>(nodes.absent());
    for (NodeSpec s : request.nodes()) {
      if (absent.contains(s.name())) {
        fresh.add(s);
      }
    }
    return fresh;
  }

  /** Free slots the listed nodes would give a new session. */
  long slots() {
    long total = 0;
    for (NodeSpec s : fresh()) {
      total += s.slots();
    }
    for (var n : nodes.present()) {
      total += n.freeSlots();
    }
    return total;
  }
}
