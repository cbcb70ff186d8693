/**
 * The core's entry point: {@link org.jdvm.core.engine.Core} decides each command by the rule
 * packages, applies the changes through the one mutator and returns the effects; it also renders
 * and restores snapshots and replays journaled changes. {@link org.jdvm.core.engine.Recovery}
 * rebuilds a core from a journal's snapshots and segments given as bytes (docs/journal.md
 * "Recovery").
 *
 * <p>This is the one package that sees every rule package ({@code alloc}, {@code spawn}, {@code
 * job}, {@code lifecycle}, {@code session}, {@code state}, {@code journal}), and none of them sees
 * it, so the core has no package cycle (house.PackageCyclesTest).
 */
package org.jdvm.core.engine;
