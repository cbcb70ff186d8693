/**
 * Jobs and namespaces: who a requester is, registration of tools and the scheduler, what agents
 * report about processes, and job control (architecture.md §4; decisions.md #11).
 *
 * <p>Role: identity (a namespace is a tool, an application or the scheduler, decided from the job
 * table, never from the connection), namespace minting ({@code <dvm>@<n>}), the launch handshake (a
 * spawn is answered once every process is launched), signalling or terminating a job, and a job's
 * time limit ({@code PMIX_JOB_TIMEOUT}: armed at the spawn, kept in the state, the job ended with
 * {@code PMIX_ERR_TIMEOUT} at the tick that reaches it; {@link org.jdvm.core.job.JobTimeouts}).
 *
 * <p>Invariants: a namespace names one job, ever; a request from an unknown or terminated namespace
 * is refused; a job terminates only when its last process has ended (or, for a tool, when it
 * departs); a process the core counts as ended is never counted again.
 */
package org.jdvm.core.job;
