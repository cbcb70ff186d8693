package org.jdvm.pmix;

import java.util.Objects;

/**
 * A process name ({@code pmix_proc_t}): a namespace and a rank.
 *
 * <p>The rank is an unsigned 32-bit value held in an {@code int}; the special ranks at the top of
 * the range are the constants below. Use {@link #rankString(int)} to print one. A namespace is at
 * most {@link #MAX_NSLEN} bytes; the empty namespace is PMIx's "invalid namespace".
 */
public record Proc(String nspace, int rank) implements Comparable<Proc> {
  /** {@code PMIX_MAX_NSLEN}. */
  public static final int MAX_NSLEN = 255;

  public static final int RANK_UNDEF = 0xFFFFFFFF;
  public static final int RANK_WILDCARD = 0xFFFFFFFE;
  public static final int RANK_LOCAL_NODE = 0xFFFFFFFD;
  public static final int RANK_INVALID = 0xFFFFFFFC;
  public static final int RANK_LOCAL_PEERS = 0xFFFFFFFB;

  /** Ranks at or above this (unsigned) are not process ranks: {@code UINT32_MAX - 50}. */
  public static final int RANK_VALID_MAX = 0xFFFFFFCD;

  public Proc {
    Objects.requireNonNull(nspace, "nspace");
  }

  /** Every rank of a namespace. */
  public static Proc wildcard(String nspace) {
    return new Proc(nspace, RANK_WILDCARD);
  }

  /** Whether the rank names one process rather than a special set. */
  public boolean isValidRank() {
    return Integer.compareUnsigned(rank, RANK_VALID_MAX) < 0;
  }

  /** The rank as PMIx tools print it: a decimal number, or WILDCARD/UNDEF/... */
  public static String rankString(int rank) {
    return switch (rank) {
      case RANK_UNDEF -> "UNDEF";
      case RANK_WILDCARD -> "WILDCARD";
      case RANK_LOCAL_NODE -> "LOCAL_NODE";
      case RANK_INVALID -> "INVALID";
      case RANK_LOCAL_PEERS -> "LOCAL_PEERS";
      default -> Integer.toUnsignedString(rank);
    };
  }

  @Override
  public int compareTo(Proc o) {
    int c = nspace.compareTo(o.nspace);
    return c != 0 ? c : Integer.compareUnsigned(rank, o.rank);
  }

  @Override
  public String toString() {
    return nspace + "." + rankString(rank);
  }
}
