package org.jdvm.core;

/** What the core asks the scheduler for (decisions.md #4, #8). */
public enum AskKind {
  /** Nodes for a new allocation (PMIX_ALLOC_NEW). */
  NEW,
  /** More nodes or more time for an existing allocation (PMIX_ALLOC_EXTEND). */
  EXTEND,
  /** The nodes an allocation lent, back into it (PMIX_ALLOC_REAQUIRE). */
  REAQUIRE,
  /** Permission to lend an allocation's nodes for a time (PMIX_ALLOC_RELEASE with a lend time). */
  LEND
}
