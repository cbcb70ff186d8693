/**
 * The journal's pure half (docs/journal.md): how entries are encoded ({@link
 * org.jdvm.core.journal.JournalCodec}, by jdvm-pmix's generic record codec, {@link
 * org.jdvm.pmix.record.RecordCodec}, whose writers generated per root type write exactly the
 * generic writer's bytes — docs/journal.md "Encoding") and framed with CRC32C ({@link
 * org.jdvm.core.journal.Framing}, in place), how a core is rebuilt from snapshots and segments
 * given as bytes ({@link org.jdvm.core.engine.Recovery}), and which reports reconcile a recovered
 * state with the processes that still exist ({@link org.jdvm.core.journal.Reconciliation}). The
 * shell does the file I/O.
 *
 * <p>Invariants: decoding works on an exact slice and checks every count against the bytes left
 * before allocating; anything malformed is a {@link org.jdvm.pmix.record.Bytes.Corrupt}, never
 * another exception; replay goes through the one mutator ({@code Core.replay}); a journal written
 * with another record vocabulary is refused, not misread; the generated writers and the generic one
 * write the same bytes for every value.
 */
package org.jdvm.core.journal;
