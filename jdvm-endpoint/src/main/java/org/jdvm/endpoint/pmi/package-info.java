/**
 * The simple PMI-1 wire protocol MPICH-family programs boot through (docs/protocol.md "Simple
 * PMI"): {@link org.jdvm.endpoint.pmi.PmiServer} listens on loopback TCP ({@code PMI_PORT}) and
 * gives each connection a {@link org.jdvm.endpoint.pmi.PmiEngine}, whose callbacks ({@code
 * PmiBackend}) run over the PMIx endpoint's own {@code Upstream} and wire-up state, so a job has
 * one modex and one fence whichever protocol its ranks speak; {@code mcmd=spawn} ({@link
 * org.jdvm.endpoint.pmi.PmiSpawn}) is a spawn of the caller, and names are published into the store
 * {@code PMIx_Publish} uses. A connection that opens with PMI-2's hello goes on in PMI-2 ({@link
 * org.jdvm.endpoint.pmi.Pmi2Wire}, {@code Pmi2Engine}) over the same callbacks. Peers claim a
 * {@code PMI_ID} ({@link org.jdvm.endpoint.pmi.PmiIds}) that the kernel proves.
 */
package org.jdvm.endpoint.pmi;
