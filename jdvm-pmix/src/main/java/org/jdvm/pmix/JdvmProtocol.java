package org.jdvm.pmix;

/**
 * What jdvm adds to the PMIx message set (docs/protocol.md): its attribute keys, its command code
 * and its event status. Both the server endpoint and the Java client use these, so they live with
 * the other wire constants. Every addition is an ordinary PMIx key or code, so a C peer linked
 * against libpmix may use them too.
 */
public final class JdvmProtocol {
  private JdvmProtocol() {}

  /** Connect blob: the per-process credential a launched process received as JDVM_CREDENTIAL. */
  public static final String CREDENTIAL = "jdvm.cred";

  /** Connect blob: the scheduler credential ({@code <dir>/scheduler.cred}). */
  public static final String SCHEDULER_CREDENTIAL = "jdvm.sched.cred";

  /**
   * Connect blob: a fresh random nonce (hex) from a jdvm client that wants the server to prove it
   * is the DVM before the client sends anything else: right after its handshake reply, the server
   * sends {@link #PROOF_BYTES} raw bytes, {@code HMAC-SHA256(key, "jdvm.proof:" + nonce)}, whose
   * key is the DVM secret for a tool or the scheduler and the peer's own {@code jdvm.cred} (as
   * ASCII) for a launched process that presented one. libpmix peers never send it and get nothing
   * extra.
   */
  public static final String CHALLENGE = "jdvm.challenge";

  /** The length of the server's answer to {@link #CHALLENGE}. */
  public static final int PROOF_BYTES = 32;

  /** What the answer to {@link #CHALLENGE} is computed over: this prefix, then the nonce. */
  public static final String PROOF_PREFIX = "jdvm.proof:";

  /** Connect blob: the DVM secret ({@code <dir>/secret}), for TCP peers not on this host. */
  public static final String SECRET = "jdvm.secret";

  /**
   * FENCENB info a node agent adds when it enters a fence once for its local participants: the
   * ranks of the caller's namespace it enters for besides the caller, as a STRING {@code "1,2,3"}
   * (docs/protocol.md "Node agents"). Honoured only from a node agent's relay, for processes on the
   * caller's node.
   */
  public static final String FENCE_FOR = "jdvm.fence.for";

  /** Query key: every node of the DVM, as a JSON array in a STRING. */
  public static final String QUERY_NODES = "jdvm.qry.nodes";

  /** Query key: every allocation and pending allocation request, as a JSON array in a STRING. */
  public static final String QUERY_ALLOCS = "jdvm.qry.allocs";

  /** Query key: every namespace the DVM knows, as a JSON array in a STRING. */
  public static final String QUERY_JOBS = "jdvm.qry.jobs";

  /**
   * Query key: every namespace the DVM knows, summarised, as a JSON array in a STRING: each job's
   * fields of {@link #QUERY_JOBS} with, instead of every process, their count, their count by state
   * and the first few (what {@code jdvm jobs} shows without {@code --procs}).
   */
  public static final String QUERY_JOBS_SUMMARY = "jdvm.qry.jobsum";

  /**
   * Query key: {@code jdvm explain}, as a JSON object in a STRING (docs/cli.md). Its qualifiers are
   * a would-be spawn's job infos (as {@code PMIx_Spawn} takes them) with {@link #EXPLAIN_PROCS}, or
   * {@link #EXPLAIN_JOB}; {@link #EXPLAIN_NODE} and {@link #EXPLAIN_ALLOC} narrow it. Answered for
   * the querying process, as its spawn would be decided.
   */
  public static final String QUERY_EXPLAIN = "jdvm.qry.explain";

  /** {@link #QUERY_EXPLAIN} qualifier: each app's process count, {@code "2,1"}, as a STRING. */
  public static final String EXPLAIN_PROCS = "jdvm.explain.procs";

  /** {@link #QUERY_EXPLAIN} qualifier: the namespace of a job to explain, as a STRING. */
  public static final String EXPLAIN_JOB = "jdvm.explain.job";

  /** {@link #QUERY_EXPLAIN} qualifier: only this node, as a STRING. */
  public static final String EXPLAIN_NODE = "jdvm.explain.node";

  /** {@link #QUERY_EXPLAIN} qualifier: only this allocation's nodes (id or request id), STRING. */
  public static final String EXPLAIN_ALLOC = "jdvm.explain.alloc";

  /**
   * Query key: the job genealogy with the allocations each job owns, as a JSON array in a STRING.
   */
  public static final String QUERY_TREE = "jdvm.qry.tree";

  /** REGEVENTS info: subscribe to the operator feed (every state change of the DVM). */
  public static final String EVENT_FEED = "jdvm.evt.feed";

  /** Operator feed event info: the change as one human-readable line. */
  public static final String CHANGE = "jdvm.change";

  /** Operator feed event info: the change as a JSON object. */
  public static final String CHANGE_JSON = "jdvm.change.json";

  /**
   * Operator feed event info (BOOL true): the recent history replayed to a new subscriber has all
   * been sent; what follows happens now. Its event carries no change.
   */
  public static final String FEED_REPLAYED = "jdvm.feed.replayed";

  /**
   * {@code PMIX_EVENT_SESSION_END} info to an allocation's requester: how the allocation ended
   * ({@code RELEASED}, {@code UNRESERVED} or {@code RECLAIMED}), as a STRING.
   */
  public static final String ALLOCATION_END = "jdvm.alloc.end";

  /** The status of an operator feed event, in the implementer range below -3000. */
  public static final int EVENT_CHANGE = -3001;

  /** Command code of JDVM_STOP, above PMIx's range: the DVM tears down and exits. */
  public static final int STOP_CMD = 200;

  /**
   * jdvm's own (STRING): the per-job directory name under {@code PMIX_IOF_OUTPUT_TO_DIRECTORY}
   * instead of the namespace; {@code jdvm run --output-filename} sends {@code 1}, Open MPI 4.1's
   * layout.
   */
  public static final String IOF_JOBDIR = "jdvm.iof.jobdir";

  /**
   * jdvm's own (BOOL): the requester's library prefixes each line with {@code RANK: } (srun -l).
   */
  public static final String IOF_LABEL = "jdvm.iof.label";

  /**
   * IOF_PULL directive (BOOL), {@code jdvm output JOB}: first send what the controller kept of the
   * job's output (docs/cli.md "jdvm output"), then answer with {@link #IOF_DROPPED}, {@link
   * #IOF_WRITTEN}, {@link #IOF_ENDED} and, once ended, {@code PMIX_JOB_TERM_STATUS} and {@code
   * PMIX_EXIT_CODE} after the server id. The pull names one namespace; a job not known is {@code
   * PMIX_ERR_NOT_FOUND}.
   */
  public static final String IOF_REPLAY = "jdvm.iof.replay";

  /**
   * IOF_PULL directive (BOOL) with {@link #IOF_REPLAY}: after the replay, the job's output goes on
   * to the caller until the job ends, which the caller hears as {@code PMIX_EVENT_JOB_END} on the
   * same connection, after the last output.
   */
  public static final String IOF_FOLLOW = "jdvm.iof.follow";

  /** Replay answer (UINT64): the bytes of the job's output that were not kept (its oldest). */
  public static final String IOF_DROPPED = "jdvm.iof.dropped";

  /** Replay answer (UINT64): every byte of the job's output so far, dropped ones included. */
  public static final String IOF_WRITTEN = "jdvm.iof.written";

  /** Replay answer (BOOL): the job has terminated. */
  public static final String IOF_ENDED = "jdvm.iof.ended";
}
