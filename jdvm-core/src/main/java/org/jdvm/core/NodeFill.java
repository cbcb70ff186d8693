package org.jdvm.core;

/**
 * How full a job may make each of its candidate nodes, besides {@link MapBy}: {@code -N n} / {@code
 * ppr:n:node} and {@code --oversubscribe}; and in what order its ranks go round the nodes it was
 * placed on ({@code --rank-by node}). A spawn without any has none ({@code null}): at most a node's
 * free slots, ranked in placement order, as before.
 *
 * @param perNode at most this many of the job's processes on one node; 0 for no cap
 * @param oversubscribe when the free slots of the candidate nodes are too few, the rest go beyond
 *     the slots, spread evenly over the candidate nodes, as PRRTE's round-robin mapper does ({@code
 *     --oversubscribe}); without it such a spawn is refused {@code PMIX_ERR_OUT_OF_RESOURCE}
 * @param rankByNode ranks are dealt one node at a time over the nodes the job was placed on, in the
 *     order they were first placed on, each taking as many as were placed there ({@code --rank-by
 *     node}, PRRTE's {@code rank_by node}); otherwise in placement order ({@code slot})
 */
public record NodeFill(int perNode, boolean oversubscribe, boolean rankByNode) {
  public NodeFill {
    if (perNode < 0) {
      throw new IllegalArgumentException("processes per node must not be negative: " + perNode);
    }
  }

  /** A fill ranked in placement order. */
  public NodeFill(int perNode, boolean oversubscribe) {
    this(perNode, oversubscribe, false);
  }

  /** {@code null} when neither is asked (the default placement), else the fill. */
  public static NodeFill of(int perNode, boolean oversubscribe) {
    return of(perNode, oversubscribe, false);
  }

  /** {@code null} when none is asked (the default placement and order), else the fill. */
  public static NodeFill of(int perNode, boolean oversubscribe, boolean rankByNode) {
    return perNode == 0 && !oversubscribe && !rankByNode
        ? null
        : new NodeFill(perNode, oversubscribe, rankByNode);
  }

  /** Whether {@code fill} caps or oversubscribes nodes (else the default placement applies). */
  public static boolean fills(NodeFill fill) {
    return fill != null && (fill.perNode > 0 || fill.oversubscribe);
  }

  /** Whether {@code fill} lets a job go beyond a node's slots. */
  public static boolean oversubscribes(NodeFill fill) {
    return fill != null && fill.oversubscribe;
  }
}
