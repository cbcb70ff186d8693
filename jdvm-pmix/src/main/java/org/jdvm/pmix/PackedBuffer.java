package org.jdvm.pmix;

import java.util.Objects;

/**
 * The deprecated {@code PMIX_BUFFER} (26) as a unit of its own (pmix-wire.md §3): a nested buffer's
 * type byte, then its byte count and bytes. {@code PMIx_Commit} still sends one per scope
 * (docs/wireup.md §c.1), whose bytes are a stream of KVAL units in {@link #bufferType}. It is never
 * valid inside a value, so jdvm reads and writes it only as a whole unit ({@code
 * Unpacker.unpackBuffer}, {@code Packer.packBuffer}).
 */
public record PackedBuffer(BufferType bufferType, ByteObject bytes) {
  public PackedBuffer {
    Objects.requireNonNull(bufferType, "bufferType");
    Objects.requireNonNull(bytes, "bytes");
  }
}
