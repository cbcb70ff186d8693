/**
 * Spawn targeting and the growth of owner sets (spec §8.2.1.6–§8.2.1.8; decisions.md #15).
 *
 * <p>Role: resolve a spawn's targets (PMIX_SPAWN_TARGET, the single-session attributes, the
 * parent's session, the default session), authorise each with the owner-set rule {@link
 * org.jdvm.core.alloc.Ownership#mayTarget} (which this package does not restate), check the fit,
 * and create, place and launch the job. {@link org.jdvm.core.spawn.NodeRule} says per node why a
 * spawn may or may not use it, and {@link org.jdvm.core.spawn.SpawnExplainer} answers {@code jdvm
 * explain} from the same decision.
 *
 * <p>Invariants: a spawn is refused whole if any target fails (never narrowed to the permitted
 * subset); a refused spawn changes nothing; a job's candidate nodes are exactly the union of its
 * targets' pools; a new job joins the owner sets of exactly the reservations it was spawned into
 * (ownership is not transitive); the scheduler may target any session; every node a spawn places a
 * process on is one {@code NodeRule} calls usable (asserted on the way out).
 */
package org.jdvm.core.spawn;
