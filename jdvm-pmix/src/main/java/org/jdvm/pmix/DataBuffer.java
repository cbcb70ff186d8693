package org.jdvm.pmix;

/**
 * A nested packed buffer ({@code pmix_data_buffer_t}, type 65). The payload is itself a bfrops
 * stream in whatever buffer mode it was built in; this type does not interpret it.
 */
public record DataBuffer(ByteObject payload) {}
