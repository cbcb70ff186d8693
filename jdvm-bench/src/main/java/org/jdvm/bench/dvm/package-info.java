/**
 * The whole-DVM benchmark that {@code jdvm bench} runs (docs/cli.md "jdvm bench"): {@link
 * org.jdvm.bench.dvm.DvmBench} measures a DVM it starts (spawn latency, job throughput, allocation
 * round trips, fresh CLI commands, the wire-up in {@link org.jdvm.bench.dvm.WireupBench}, MPI
 * programs under jdvm and under their own launchers in {@link org.jdvm.bench.dvm.MpiLaunchBench})
 * beside the machine's floor ({@link org.jdvm.bench.dvm.SpawnFloor}, a C program compiled at bench
 * time, and {@link org.jdvm.bench.dvm.TurnsWithFloor}), and {@link
 * org.jdvm.bench.dvm.AgentScaleBench} the controller against simulated node agents. The bench DVM
 * runs detached ({@link org.jdvm.bench.dvm.DetachedDvm}), stopped however the bench ends. The
 * command parses the options and prints the {@link org.jdvm.bench.dvm.Row}s. Benchmarks are not
 * tests: nothing here asserts a time.
 */
package org.jdvm.bench.dvm;
