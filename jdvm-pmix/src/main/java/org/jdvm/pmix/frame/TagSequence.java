package org.jdvm.pmix.frame;

/**
 * The dynamic tags one side of a connection hands out, as OpenPMIx master does (pmix-wire.md §9.2):
 * a counter per peer, pre-incremented, the connecting side in the lower half of the dynamic range
 * (101 up to {@link #SPLIT}) and the accepting side in the upper half (above it, short of the
 * wildcard), each wrapping within its half. The two sides can thus both start requests on one
 * connection without their tags colliding. Not thread-safe: one per connection and side.
 */
public final class TagSequence {
  /** The last tag of the connecting side's half: 100 + (2^32 - 100) / 2. */
  public static final long SPLIT = Tags.DYNAMIC + ((1L << 32) - Tags.DYNAMIC) / 2;

  private final long first;
  private final long last;
  private long next;

  private TagSequence(long first, long last) {
    this.first = first;
    this.last = last;
    this.next = first;
  }

  /** The tags of the side that opened the connection: 101, 102, ... */
  public static TagSequence connector() {
    return new TagSequence(Tags.DYNAMIC + 1L, SPLIT);
  }

  /** The tags of the side that accepted it: from just above {@link #SPLIT}. */
  public static TagSequence acceptor() {
    return new TagSequence(SPLIT + 1, Integer.toUnsignedLong(Tags.CONNECT) - 1);
  }

  /** The next tag, as an unsigned 32-bit value in an int. */
  public int next() {
    long tag = next;
    next = tag == last ? first : tag + 1;
    return (int) tag;
  }
}
