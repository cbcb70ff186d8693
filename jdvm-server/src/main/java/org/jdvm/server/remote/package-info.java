/**
 * Nodes on other hosts (architecture.md §5): what runs between a node agent and the controller.
 *
 * <p>{@link org.jdvm.server.remote.RelayChannel} carries the PMIx frames of an agent's local peers,
 * each tagged by a connection id the agent chose.
 */
package org.jdvm.server.remote;
