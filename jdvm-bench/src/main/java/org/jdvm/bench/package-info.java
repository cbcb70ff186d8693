/**
 * JMH microbenchmarks (run with {@code ./dev bench [pattern]}): {@code pmix} measures encoding and
 * decoding a typical allocation request; {@code core} measures spawning into a reservation in a
 * large pool, draining a deep CHILD genealogy, and the heap a large state needs ({@code
 * CoreFootprint}, a plain main). The end-to-end figures (spawn latency, throughput, allocation
 * round trips, CLI start-up, the wire-up) are measured by {@code dvm}, which {@code jdvm bench}
 * runs; {@code host} what naming a connecting loopback peer costs as the host's connections grow.
 * Benchmarks measure; tests never assert times.
 */
package org.jdvm.bench;
