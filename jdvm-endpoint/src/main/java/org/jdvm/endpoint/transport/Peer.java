package org.jdvm.endpoint.transport;

import java.util.Objects;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;

/**
 * Who an admitted connection acts for (docs/protocol.md "Who a peer is"), and how its bodies are
 * packed.
 *
 * @param proc the namespace and rank every request of the connection is made as
 * @param role what the connection is, as the handshake established it
 * @param format the peer's wire component and buffer type, as it announced them
 */
public record Peer(Proc proc, Role role, WireFormat format) {
  /** What a connection is. */
  public enum Role {
    /** A tool with a namespace of its own, minted or given. */
    TOOL,
    /** A launched process, or a helper presenting its credential. */
    APPLICATION,
    /** The scheduler: a tool that is the implicit owner of every session. */
    SCHEDULER;

    public boolean isToolClass() {
      return this != APPLICATION;
    }
  }

  public Peer {
    Objects.requireNonNull(proc, "proc");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(format, "format");
  }

  /** Whether an event or output addressed to {@code target} is this peer's. */
  public boolean actsFor(Proc target) {
    return proc.nspace().equals(target.nspace())
        && (target.rank() == Proc.RANK_WILDCARD || target.rank() == proc.rank());
  }
}
