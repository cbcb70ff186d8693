package org.jdvm.core.spawn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdvm.core.state.Allocation;
import org.jdvm.core.state.Pool;
import org.jdvm.core.state.Sessions;
import org.jdvm.core.state.State;

/**
 * The sessions a spawn may map onto, resolved: their ids (the first is the job's primary session),
 * their pools (the candidate nodes are exactly their union), the reservations among them, whose
 * owner sets the new job joins, and the sessions as named ({@code null}: the default session),
 * which {@link NodeRule} reads.
 */
public record Targets(
    List<Long> sessionIds,
    List<Pool> pools,
    List<Allocation> reservations,
    List<Allocation> named) {

  /** The default session alone. */
  public static Targets defaultSession(State state) {
    return new Targets(
        List.of(Sessions.DEFAULT_ID),
        List.of(state.nodes().defaultPool()),
        List.of(),
        Collections.singletonList(null));
  }

  /** The union of these sessions, {@code null} standing for the default session. */
  public static Targets of(List<Allocation> sessions, State state) {
    Set<Long> ids = new LinkedHashSet<>();
    List<Pool> pools = new ArrayList<>();
    List<Allocation> reservations = new ArrayList<>();
    for (Allocation a : sessions) {
      boolean reserved = a != null && a.reserved();
      long id = reserved ? a.sessionId() : Sessions.DEFAULT_ID;
      if (ids.add(id)) {
        pools.add(reserved ? a.pool() : state.nodes().defaultPool());
        if (reserved) {
          reservations.add(a);
        }
      }
    }
    return new Targets(
        List.copyOf(ids),
        pools,
        reservations,
        Collections.unmodifiableList(new ArrayList<>(sessions)));
  }
}
