/**
 * The bfrops wire codec: PMIx data to bytes and back, byte for byte what libpmix's "flex" family
 * ({@code v41}, {@code v61}) writes (pmix-wire.md §2–§8, §13).
 *
 * <p>Role: {@link org.jdvm.pmix.codec.Packer} builds a message body as a sequence of units, one per
 * pack call (§2.3); {@link org.jdvm.pmix.codec.Unpacker} reads one back from an exact slice of
 * untrusted bytes. Both are bound to a {@link org.jdvm.pmix.WireFormat}: the peer's component
 * (which types exist: {@code v41} has no ALLOC_INHERIT, §7) and its buffer type (whether units
 * carry tags, §2.4). {@link org.jdvm.pmix.codec.ValueOps} gathers the other operations PMIx defines
 * for every type: copy, compare ({@link org.jdvm.pmix.codec.ValueComparison}) and print ({@link
 * org.jdvm.pmix.codec.DataPrinter}).
 *
 * <p>Invariants:
 *
 * <ul>
 *   <li>Encodings follow §3 to the byte, quirks included: the 9th varint byte, UINT as zigzag
 *       INT32, string lengths counting the NUL, the tag before every PID, FLOAT/DOUBLE as glibc's
 *       {@code %f} text ({@link org.jdvm.pmix.codec.FloatText}), one POINTER sentinel per call.
 *   <li>Receivers read what the sender meant: DATA_TYPE fields unsigned (§6.1), COMPRESSED_STRING
 *       inflated into the STRING it holds, UNDEF-typed arrays in the 4.2.2 layout.
 *   <li>Decoding is bounded by the bytes present: a count or length larger than what remains is
 *       refused before anything is allocated, lists grow only with decoded elements, varints may
 *       not be wider than their type, arrays nest at most 100 deep. Every failure is a {@link
 *       org.jdvm.pmix.codec.WireException} with the PMIx status, the offset and the scope it
 *       poisons; nothing else escapes.
 *   <li>A failed pack leaves the packer's bytes unchanged and reports libpmix's status ({@code
 *       PMIX_ERR_UNKNOWN_DATA_TYPE} for a type the component lacks, {@code PMIX_ERROR} for a value
 *       carrying one).
 *   <li>No I/O, threads, clocks, randomness or logging: this is a pure function of its inputs.
 * </ul>
 */
package org.jdvm.pmix.codec;
