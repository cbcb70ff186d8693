package org.jdvm.pmix;

/** A count of resources of one device type ({@code pmix_resource_unit_t}, v51 and later). */
public record ResourceUnit(long deviceType, long count) {}
