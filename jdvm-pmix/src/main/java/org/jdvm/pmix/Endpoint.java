package org.jdvm.pmix;

/** A fabric endpoint ({@code pmix_endpoint_t}). */
public record Endpoint(String uuid, String osname, ByteObject endpoint) {}
