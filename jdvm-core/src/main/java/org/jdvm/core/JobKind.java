package org.jdvm.core;

/** What a namespace is, as the core knows it from its own job table. */
public enum JobKind {
  /** A connected PMIx tool (a client with no job of its own); registered by the shell. */
  TOOL,
  /** A job the core spawned; its processes run on nodes of the DVM. */
  APPLICATION,
  /** The scheduler: a tool that is the implicit owner of every session. */
  SCHEDULER;

  /** Spec §8.2.1.5: a tool-class requester may name PMIX_ALLOC_TARGET; an application may not. */
  public boolean isToolClass() {
    return this != APPLICATION;
  }
}
