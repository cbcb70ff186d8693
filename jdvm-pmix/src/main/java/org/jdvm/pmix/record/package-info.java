/**
 * A generic binary codec of Java records: values are encoded by the shape of their types — records,
 * the sealed interfaces over them, enums, lists, sets, boxed numbers, strings, byte arrays and PMIx
 * values — so a vocabulary of records needs no hand-written layout that could fall behind it.
 *
 * <p>Role: {@link org.jdvm.pmix.record.RecordCodec} writes and reads values over {@link
 * org.jdvm.pmix.record.Bytes}' primitive encoding (big-endian integers, length-prefixed strings);
 * on the write path by writers generated per root type as hidden classes ({@code RecordWriters}),
 * which write exactly the generic writer's bytes. The journal's entries and snapshots are written
 * with it (jdvm-core's {@code journal}, docs/journal.md "Encoding").
 *
 * <p>Invariants: decoding works on an exact slice and checks every count and length against the
 * bytes left before allocating; anything malformed is a {@link org.jdvm.pmix.record.Bytes.Corrupt},
 * never another exception; the generated writers and the generic one write the same bytes for every
 * value. No I/O, threads, clocks, randomness or logging.
 */
package org.jdvm.pmix.record;
