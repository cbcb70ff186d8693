package org.jdvm.core;

/**
 * How full a job may make each of its candidate nodes, besides {@link MapBy}: {@code -N n} / {@code
 * ppr:n:node} and {@code --oversubscribe}. A spawn without either has none ({@code null}): at most
 * a node's free slots, as before.
 *
 * @param perNode at most this many of the job's processes on one node; 0 for no cap
 * @param oversubscribe when the free slots of the candidate nodes are too few, the rest go beyond
 *     the slots, spread evenly over the candidate nodes, as PRRTE's round-robin mapper does ({@code
 *     --oversubscribe}); without it such a spawn is refused {@code PMIX_ERR_OUT_OF_RESOURCE}
 */
public record NodeFill(int perNode, boolean oversubscribe) {
  public NodeFill {
    if (perNode < 0) {
      throw new IllegalArgumentException("processes per node must not be negative: " + perNode);
    }
  }

  /** {@code null} when neither is asked (the default placement), else the fill. */
  public static NodeFill of(int perNode, boolean oversubscribe) {
    return perNode == 0 && !oversubscribe ? null : new NodeFill(perNode, oversubscribe);
  }

  /** Whether {@code fill} lets a job go beyond a node's slots. */
  public static boolean oversubscribes(NodeFill fill) {
    return fill != null && fill.oversubscribe;
  }
}
