package org.jdvm.pmix;

/** Distance from a process to a device ({@code pmix_device_distance_t}). */
public record DeviceDistance(
    String uuid, String osname, long deviceType, int minDistance, int maxDistance) {}
