package org.jdvm.core;

/** How a job's processes are spread over its candidate nodes. */
public enum MapBy {
  /** Fill each node's free slots before moving to the next node (the default). */
  SLOT,
  /** One process per node per round, round-robin over the nodes with a free slot. */
  NODE
}
