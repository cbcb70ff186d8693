/**
 * Benchmarks of the host's own pieces: {@link org.jdvm.bench.host.PeerLookupBench}, what naming a
 * connecting loopback peer costs as the host's open connections grow (the kernel's tables against
 * one {@code sock_diag} look-up; docs/protocol.md "Who a peer is"). A plain main, run by hand.
 * Benchmarks are not tests: nothing here asserts a time.
 */
package org.jdvm.bench.host;
