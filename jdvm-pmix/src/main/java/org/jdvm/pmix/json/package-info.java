/**
 * JSON for PMIx data: a small bounded reader and writer ({@link org.jdvm.pmix.json.Json}) and the
 * mapping between values and the JSON form that the golden vectors of pmix-wire.md §12.2 use for
 * their {@code value} field ({@link org.jdvm.pmix.json.ValueJson}).
 *
 * <p>Role: the CLI's {@code jdvm pmix encode/decode} and every {@code --json} output of the CLI and
 * the server write through here, so a capture, a test vector and a command's output read alike.
 *
 * <p>Invariants: numbers keep their exact value (64-bit unsigned integers as exact JSON integers,
 * fractions as written); parsing is bounded in length and nesting; malformed text and JSON of the
 * wrong shape are a {@link org.jdvm.pmix.json.JsonException} naming the offset or the path. Only
 * {@code java.base}; no I/O.
 */
package org.jdvm.pmix.json;
