/**
 * The reservation engine: the whole state of the DVM and every rule of spec §8.2.1, as a pure,
 * single-threaded, deterministic state machine.
 *
 * <p>Role: {@link org.jdvm.core.engine.Core#handle} takes a {@link org.jdvm.core.Command} (a
 * client's {@link org.jdvm.core.Request} or a {@link org.jdvm.core.Report} of an outside fact) and
 * the shell's time, and returns an {@link org.jdvm.core.Outcome}: the {@link org.jdvm.core.Change}s
 * it applied, the {@link org.jdvm.core.Effect}s the shell must execute in order, the {@link
 * org.jdvm.core.Rejection} if it refused, and its next deadline. The contract with the shell, with
 * the order of obligations for the effects, is in the module's README.md.
 *
 * <p>The API is this package, {@code org.jdvm.core.engine} (the {@code Core} itself and {@code
 * Recovery}) and {@code org.jdvm.core.query}: commands, outcomes, changes, effects, rejections,
 * limits, views and value types. The other packages are public only so the core's features can
 * share them (every module runs on the class path, where a {@code module-info} would restrict
 * nothing; {@code house.CoreApiOnlyTest} keeps every other module to the API). Nothing in the API
 * leads to the live state but read-only views: outside the core, the state changes only through
 * {@code handle}.
 *
 * <p>Invariants: a refused request changes nothing; no client can make the core hold more than its
 * {@link org.jdvm.core.Limits}; every request is answered exactly once; only {@code State.apply}
 * writes state, and replaying the changes rebuilds it; no I/O, threads, clocks, randomness or
 * logging anywhere in this module.
 */
package org.jdvm.core;
