package org.jdvm.endpoint.wireup;

/**
 * Which of a rank's committed buffers a requester sees (docs/wireup.md §c.3 "Scope rule"): a
 * requester on the target's node sees its LOCAL buffer, one on another node its REMOTE buffer, and
 * a rank sees all of its own keys. A GLOBAL put is in both buffers, so it is seen either way.
 */
public enum Visibility {
  /** A peer on the same node: the LOCAL buffer. */
  LOCAL,
  /** A peer on another node (or a requester on no node, such as a tool): the REMOTE buffer. */
  REMOTE,
  /** The rank itself: both buffers. */
  OWN
}
