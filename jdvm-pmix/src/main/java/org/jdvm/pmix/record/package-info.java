/**
 * A generic binary codec of Java records: values are encoded by the shape of their types — records,
 * the sealed interfaces over them, enums, lists, sets, maps, boxed numbers, strings, byte arrays
 * and PMIx values — so a vocabulary of records needs no hand-written layout that could fall behind
 * it.
 *
 * <p>Role: {@link org.jdvm.pmix.record.RecordCodec} writes and reads values over {@link
 * org.jdvm.pmix.record.Bytes}' primitive encoding (big-endian integers, length-prefixed strings) in
 * two layouts of the same shapes: with a presence byte before every reference, {@code null} allowed
 * — the journal's entries and snapshots (jdvm-core's {@code journal}, docs/journal.md "Encoding"),
 * written on their hot path by writers generated per root type as hidden classes ({@code
 * RecordWriters}) — and with every reference required, no presence byte — the agent link's messages
 * (docs/protocol.md "Agent link"). {@code Layout} builds the generic codecs of each, once per type;
 * {@code RecordShape} reaches a record's components and constructor.
 *
 * <p>Invariants: decoding works on an exact slice and checks every count and length against the
 * bytes left (each item's fewest bytes) before allocating, and a list grows only with the items
 * read; anything malformed is a {@link org.jdvm.pmix.record.Bytes.Corrupt}, never another
 * exception; the generated writers and the generic one write the same bytes for every value; the
 * required layout never writes or reads a {@code null}. No I/O, threads, clocks, randomness or
 * logging.
 */
package org.jdvm.pmix.record;
