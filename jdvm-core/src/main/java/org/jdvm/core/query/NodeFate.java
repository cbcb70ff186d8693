package org.jdvm.core.query;

/**
 * What last happened to a node that left an allocation or the DVM, as the core remembers it
 * (bounded, like {@link EndedAllocation}).
 *
 * @param allocId the allocation it last left, or {@code null} if it was in none
 * @param leftDvm whether it left the DVM (lost, or handed back to the scheduler)
 */
public record NodeFate(String node, String allocId, boolean leftDvm) {}
