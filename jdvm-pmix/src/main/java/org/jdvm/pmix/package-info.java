/**
 * The PMIx data model: immutable Java values for every type that travels in a PMIx message, and the
 * enumerations and constants around them (pmix-wire.md §3–§8).
 *
 * <p>Role: {@link org.jdvm.pmix.Value}, {@link org.jdvm.pmix.Info}, {@link org.jdvm.pmix.Proc},
 * {@link org.jdvm.pmix.DataArray} and the other records are what the codec ({@code
 * org.jdvm.pmix.codec}) packs and unpacks and what {@code jdvm-core} reasons about; {@link
 * org.jdvm.pmix.DataType} carries PMIx's numeric type codes, {@link org.jdvm.pmix.PmixStatus} the
 * status codes and their names, {@link org.jdvm.pmix.AllocDirective} and {@link
 * org.jdvm.pmix.AllocInheritance} the allocation enumerations with their string converters, {@link
 * org.jdvm.pmix.WireComponent} and {@link org.jdvm.pmix.WireFormat} what a connection speaks,
 * {@link org.jdvm.pmix.DataRange} the event and data ranges, {@link org.jdvm.pmix.Signal} the Linux
 * signals by name and number. {@link org.jdvm.pmix.PmixKeys} and {@link org.jdvm.pmix.JdvmProtocol}
 * are the registry of attribute keys: other code names a key only through their constants.
 *
 * <p>Invariants: values are immutable and checked on construction (each type has one Java
 * representation, documented on {@link org.jdvm.pmix.Value}; integers are range-checked {@code
 * Long}s), so copying one is sharing it. Only {@code java.base}; no I/O, threads, clocks,
 * randomness or logging.
 *
 * <p>Sub-packages: {@code codec} (the bfrops wire format), {@code frame} (headers and the connect
 * handshake), {@code json} (the JSON form of values), {@code dict} (the attribute dictionary),
 * {@code record} (a generic binary codec of Java records, which the journal's entries use).
 */
package org.jdvm.pmix;
