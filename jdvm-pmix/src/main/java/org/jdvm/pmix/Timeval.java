package org.jdvm.pmix;

/** {@code struct timeval}: seconds and microseconds, each packed as a zigzag INT64. */
public record Timeval(long seconds, long microseconds) {}
