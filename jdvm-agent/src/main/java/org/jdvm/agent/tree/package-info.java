/**
 * The tree of node agents (docs/ARCHITECTURE.md "Across hosts"): {@link org.jdvm.agent.tree.Radix}
 * computes each position's parent and children by PRRTE's radix arithmetic, with the controller at
 * the root. Pure: no I/O, threads or clocks.
 */
package org.jdvm.agent.tree;
