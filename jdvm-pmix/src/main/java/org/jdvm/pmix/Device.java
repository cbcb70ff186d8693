package org.jdvm.pmix;

/** A device ({@code pmix_device_t}, v51 and later). */
public record Device(String uuid, String osname, long deviceType) {}
