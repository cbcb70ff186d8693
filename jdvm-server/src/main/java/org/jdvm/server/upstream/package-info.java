/**
 * The endpoint's backend: {@link org.jdvm.server.upstream.ControllerUpstream} is the {@code
 * org.jdvm.endpoint.Backend} (an {@link org.jdvm.endpoint.serve.Upstream}) the endpoint is given
 * when it starts serving, built from the endpoint's parts and the {@link org.jdvm.server.Dvm}:
 * requests go to the core and come back through the shell's {@code PeerGateway.reply}; reads run on
 * the controller thread against the core's views: a launched process's job data and another job's
 * ({@code ClientData}), where a process runs and which ranks ended ({@code WireupViews}), {@code
 * PMIx_Query_info} answers ({@code QueryAnswers}; what the DVM serves as a host, for {@code
 * PMIX_QUERY_ATTRIBUTE_SUPPORT}: {@code HostSupport}) and jdvm's listings ({@code Listings}); a
 * get's plan is a {@code GetPlan}. The wire-up (commit, fence, gets of peers' data) goes to the
 * {@code wireup} state it holds; job sizes and placements, which never change for a job, are kept
 * so that a fence or a same-job get does not ask the controller again; what the DVM's outcomes say
 * of jobs' lives (processes ended, jobs ended) reaches it through the endpoint's face. Stdin pushes
 * ({@code StdinFeed}) and cleanup registrations go past the core to the targets' node agents, after
 * a read that checks who may act on the job and where its processes run.
 *
 * <p>It uses the endpoint's {@code serve} (the interface it implements, its refusal type), {@code
 * deliver} and {@code wireup}; the endpoint knows it only as a {@code Backend} (jdvm-endpoint may
 * not import jdvm-server: house.ModuleImportsTest).
 *
 * <p>Invariants: every submitted request's future completes exactly once (the core answers each
 * request once; a DVM that cannot take it completes it {@code PMIX_ERR_UNREACH}); reads return
 * copies, never views of live state; a job's wire-up state (committed data, kept sizes and
 * placements, its directory) goes when the job ends; file I/O never runs on the controller thread.
 */
package org.jdvm.server.upstream;
