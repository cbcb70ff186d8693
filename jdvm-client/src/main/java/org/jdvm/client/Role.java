package org.jdvm.client;

/** What a client is to the DVM (architecture.md §4, docs/protocol.md "Who a peer is"). */
public enum Role {
  /** A tool: a namespace of its own, minted by the DVM (or one it names). */
  TOOL,
  /**
   * A process jdvm launched, or a helper it started: acts as that process (its namespace and rank),
   * proved by the {@code JDVM_CREDENTIAL} in its environment.
   */
  APPLICATION,
  /**
   * The scheduler: a tool that is the implicit owner of every session and may drive sessions with
   * session control; proved by the scheduler credential ({@code <dir>/scheduler.cred}).
   */
  SCHEDULER
}
