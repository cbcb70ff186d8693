/**
 * Benchmarks of the reservation engine (results in jdvm-core/README.md "Measured cost"): JMH
 * benchmarks for a spawn into a reservation inside pools of 1,000 and 100,000 nodes ({@link
 * org.jdvm.bench.core.SpawnBenchmark}) and for the drain of a 1,000,000-job genealogy under CHILD
 * reservations ({@link org.jdvm.bench.core.TerminationBenchmark}), and a harness measuring the heap
 * of 100,000 nodes and 1,000,000 jobs ({@link org.jdvm.bench.core.CoreFootprint}). The journal's
 * cost and recovery ({@link org.jdvm.bench.core.JournalBenchmark}) and what it costs a client, per
 * fsync policy side by side ({@link org.jdvm.bench.core.JournalOverheadBenchmark}), are measured by
 * harnesses with a {@code main} (docs/journal.md "Benchmarks"). Run with {@code ./dev bench
 * SpawnBenchmark} (any JMH pattern). Benchmarks are not tests: nothing here asserts a time.
 */
package org.jdvm.bench.core;
