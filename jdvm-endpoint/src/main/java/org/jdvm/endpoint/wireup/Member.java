package org.jdvm.endpoint.wireup;

import java.util.Objects;
import org.jdvm.pmix.Proc;

/**
 * A process as the ranges of published data see it (docs/wireup.md §c.4): who it is, the node it
 * runs on ({@code null} for a tool, which runs on none of the DVM's nodes) and its job's primary
 * session.
 */
public record Member(Proc proc, String node, long sessionId) {
  public Member {
    Objects.requireNonNull(proc, "proc");
  }
}
