/**
 * JMH benchmarks of the PMIx codec. Benchmarks are measurements, not tests: nothing here asserts a
 * time. Run with {@code ./dev bench <pattern>}.
 */
package org.jdvm.bench.pmix;
