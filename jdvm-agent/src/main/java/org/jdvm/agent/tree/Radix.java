package org.jdvm.agent.tree;

import java.util.ArrayList;
import java.util.List;

/**
 * The radix tree that launch, fence and get data cross (docs/ARCHITECTURE.md "Across hosts"): the
 * controller is position 0, the node agents positions 1..N in join order, and every position's
 * children are found by arithmetic, as PRRTE's {@code routed/radix} does (facts read at
 * openpmix/prrte {@code src/rml/radix.h}, {@code routed_radix.c}; no code taken). Level {@code L}
 * holds {@code r^L} positions, the first of them {@code (r^L - 1) / (r - 1)}; a position {@code i}
 * of level {@code L} has the children {@code i + k·r^L} for {@code k = 1..r} (those below the
 * size), and its parent is {@code (i - first(L)) mod r^(L-1) + first(L-1)}. So the tree is full
 * level by level, its depth is the level of the last position, at most {@code ⌈log_r size⌉}, and a
 * subtree is a stride: every position of {@code i}'s subtree is {@code ≡ i} modulo {@code r^L}.
 *
 * <p>Pure and immutable: no I/O, no state beyond the two numbers.
 */
public record Radix(int radix, int size) {
  /** The default fan-out (argued in docs/ARCHITECTURE.md "Across hosts"). */
  public static final int DEFAULT_RADIX = 8;

  /** The largest fan-out accepted: past it a parent's fan-out is the flat one again. */
  public static final int MAX_RADIX = 4_096;

  public Radix {
    if (radix < 2 || radix > MAX_RADIX) {
      throw new IllegalArgumentException(
          "the radix must be between 2 and " + MAX_RADIX + ", not " + radix);
    }
    if (size < 1) {
      throw new IllegalArgumentException("a tree has at least its root, not " + size);
    }
  }

  /** The level of {@code position} (the root's is 0). */
  public int level(int position) {
    check(position);
    int level = 0;
    long first = 0;
    long width = 1;
    while (first + width <= position) {
      first += width;
      width *= radix;
      level++;
    }
    return level;
  }

  /** The first position of {@code level}: {@code (r^level - 1) / (r - 1)}. */
  private long first(int level) {
    long first = 0;
    long width = 1;
    for (int l = 0; l < level; l++) {
      first += width;
      width *= radix;
    }
    return first;
  }

  /** {@code r^level}, saturated past the size. */
  private long width(int level) {
    long width = 1;
    for (int l = 0; l < level && width <= size; l++) {
      width *= radix;
    }
    return width;
  }

  /** The parent of {@code position}, or -1 for the root. */
  public int parent(int position) {
    int level = level(position);
    if (level == 0) {
      return -1;
    }
    long above = width(level - 1);
    return (int) ((position - first(level)) % above + first(level - 1));
  }

  /** The children of {@code position}, in increasing order (none at the leaves). */
  public List<Integer> children(int position) {
    long stride = width(level(position));
    List<Integer> out = new ArrayList<>(Math.min(radix, size));
    for (int k = 1; k <= radix; k++) {
      long child = position + k * stride;
      if (child >= size) {
        break;
      }
      out.add((int) child);
    }
    return out;
  }

  /** Whether {@code position} lies in the subtree rooted at {@code root} (itself included). */
  public boolean inSubtree(int root, int position) {
    check(position);
    int rootLevel = level(root);
    return position >= root
        && level(position) >= rootLevel
        && (position - root) % width(rootLevel) == 0;
  }

  /** The tree's depth: the level of its last position. */
  public int depth() {
    return level(size - 1);
  }

  private void check(int position) {
    if (position < 0 || position >= size) {
      throw new IllegalArgumentException("position " + position + " is not in a tree of " + size);
    }
  }
}
