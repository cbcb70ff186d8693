package org.jdvm.client;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.AllocRequest;
import org.jdvm.pmix.body.InfosReply;
import org.jdvm.pmix.body.IofPushRequest;
import org.jdvm.pmix.body.JobControlRequest;
import org.jdvm.pmix.body.NotifyRequest;
import org.jdvm.pmix.body.QueryRequest;
import org.jdvm.pmix.body.SessionCtrlRequest;
import org.jdvm.pmix.body.SpawnNbRequest;
import org.jdvm.pmix.body.SpawnReply;
import org.jdvm.pmix.body.StatusReply;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * jdvm's Java client: a PMIx peer of the DVM, interchangeable with a C program linked against
 * libpmix (architecture.md §3). It acts as a tool (a namespace of its own), as a launched process
 * (from its environment), or as the scheduler. Every operation comes blocking, throwing {@link
 * PmixException}, and as {@code ...Async}, returning a {@link CompletableFuture} that fails with
 * one.
 *
 * <p>A tool that reserves two nodes, runs a job there and waits for it:
 *
 * <pre>{@code
 * try (JdvmClient dvm = JdvmClient.connect()) {                 // JDVM_URI or ~/.jdvm/dvm.json
 *   AllocationResult alloc = dvm.allocate(
 *       AllocationRequest.newAllocation().nodes(2).inheritance(AllocInheritance.CHILD).build());
 *   Job job = dvm.spawn(SpawnRequest.of("hostname").procs(4).target(alloc.allocId()).build());
 *   JobEnd end = job.awaitEnd();                                 // output went to our stdout
 *   System.out.println(job.nspace() + " ended with " + end.exitCode());
 * }                                                              // finalize: the tool departs
 * }</pre>
 *
 * <p>Threads: one thread reads the connection and completes the futures (their dependent stages run
 * there: do not block in them, use the {@code ...Async} stages instead); event handlers, the output
 * handler and job ends run in order on one delivery thread, where blocking calls are fine.
 */
public final class JdvmClient implements AutoCloseable {
  /** How long {@link #close} waits for the DVM to answer FINALIZE (libpmix's tool waits 5 s). */
  static final long FINALIZE_WAIT_MS = 5000;

  /** Stdin chunks {@link #forwardStdin} sends at once, and their size (a window of 256 KiB). */
  static final int STDIN_WINDOW = 4;

  static final int STDIN_CHUNK_BYTES = 64 << 10;

  private final Wire wire;
  private final Role role;
  private final Contact contact;
  private final Inbox inbox;
  private final WireUp wireUp = new WireUp(this);
  private volatile boolean closed;

  private JdvmClient(Wire wire, Role role, Contact contact, Inbox inbox) {
    this.wire = wire;
    this.role = role;
    this.contact = contact;
    this.inbox = inbox;
  }

  /** A client on a connection whose handshake is done: it starts reading. */
  static JdvmClient open(Wire wire, Role role, Contact contact, OutputHandler output) {
    Inbox inbox = new Inbox(output);
    JdvmClient client = new JdvmClient(wire, role, contact, inbox);
    wire.start(inbox);
    return client;
  }

  /**
   * Connects as the environment says: as the launched process named by {@code PMIX_NAMESPACE} and
   * {@code PMIX_RANK} when {@code JDVM_CREDENTIAL} is set, else as a fresh tool; the DVM is found
   * by {@link Contact#discover}.
   */
  public static JdvmClient connect() throws PmixException {
    return connector().connect();
  }

  /** Options for connecting: where, as what, how. */
  public static Connector connector() {
    return new Connector();
  }

  // ---- who and where -------------------------------------------------------------------------

  /** Who this client acts as: its tool namespace (rank 0), or the launched process. */
  public Proc self() {
    return wire.self;
  }

  public Role role() {
    return role;
  }

  public Contact contact() {
    return contact;
  }

  /** Sets where forwarded output goes from now on. */
  public void onOutput(OutputHandler handler) {
    inbox.output(Objects.requireNonNull(handler, "handler"));
  }

  // ---- allocation ----------------------------------------------------------------------------

  /**
   * Requests, extends, releases, reacquires or cancels an allocation.
   *
   * <pre>{@code
   * AllocationResult a = dvm.allocate(AllocationRequest.newAllocation().nodes(2).build());
   * dvm.allocate(AllocationRequest.release().allocId(a.allocId()).build());
   * }</pre>
   *
   * @throws PmixException the DVM's refusal, e.g. {@code PMIX_ERR_NO_PERMISSIONS}
   */
  public AllocationResult allocate(AllocationRequest request) throws PmixException {
    return await(allocateAsync(request));
  }

  public CompletableFuture<AllocationResult> allocateAsync(AllocationRequest request) {
    byte[] body =
        new AllocRequest(request.directive().code(), forWire(request.infos())).write(wire.format);
    return wire.call(body, in -> AllocationResult.of(infosOrThrow(in, "allocation")));
  }

  // ---- spawn ---------------------------------------------------------------------------------

  /**
   * Spawns a job; returns once every process is launched. Its output comes to the output handler,
   * and {@link Job#awaitEnd()} waits for its end.
   *
   * <pre>{@code
   * Job job = dvm.spawn(SpawnRequest.of("/bin/echo", "hi").procs(2).target(allocId).build());
   * int exit = job.awaitEnd().exitCode();
   * }</pre>
   */
  public Job spawn(SpawnRequest request) throws PmixException {
    return await(spawnAsync(request));
  }

  public CompletableFuture<Job> spawnAsync(SpawnRequest request) {
    OutputFormat format;
    try {
      format = OutputFormat.of(request);
    } catch (PmixException e) {
      return CompletableFuture.failedFuture(e);
    }
    byte[] body = new SpawnNbRequest(forWire(request.infos()), request.apps()).write(wire.format);
    return wire.call(
        body,
        in -> {
          SpawnReply reply = SpawnReply.read(in);
          if (reply.status() != PmixStatus.SUCCESS) {
            throw new PmixException(reply.status(), "spawn refused");
          }
          Job job = new Job(reply.nspace());
          inbox.format(job.nspace(), format);
          inbox.spawned(job);
          return job;
        });
  }

  // ---- queries -------------------------------------------------------------------------------

  /**
   * {@code PMIx_Query_info}: each answer's key is its query key; keys the DVM cannot answer are
   * left out.
   *
   * <pre>{@code
   * List<Info> r = dvm.query(new Query(List.of(PmixKeys.QUERY_NAMESPACES), List.of()));
   * }</pre>
   */
  public List<Info> query(Query... queries) throws PmixException {
    return await(queryAsync(List.of(queries)));
  }

  public CompletableFuture<List<Info>> queryAsync(List<Query> queries) {
    byte[] body = new QueryRequest(queries).write(wire.format);
    return wire.call(body, in -> infosOrThrow(in, "query"));
  }

  /**
   * {@code PMIX_QUERY_ALLOC_STATUS} of an allocation or a pending request, by either id: {@code
   * active}, {@code terminating}, {@code pending} or {@code queued}.
   *
   * <pre>{@code
   * String state = dvm.allocationStatus("my-batch");   // "queued"
   * }</pre>
   */
  public String allocationStatus(String allocIdOrReqId) throws PmixException {
    List<Info> q = List.of(Info.of(PmixKeys.ALLOC_ID, Value.string(allocIdOrReqId)));
    return single(PmixKeys.QUERY_ALLOC_STATUS, q);
  }

  /** {@code jdvm.qry.nodes}: the DVM's nodes as a JSON array (docs/cli.md). */
  public String nodesJson() throws PmixException {
    return single(JdvmProtocol.QUERY_NODES, List.of());
  }

  /** {@code jdvm.qry.allocs}: allocations and pending requests as a JSON array. */
  public String allocsJson() throws PmixException {
    return single(JdvmProtocol.QUERY_ALLOCS, List.of());
  }

  /** {@code jdvm.qry.jobs}: every namespace the DVM knows as a JSON array. */
  public String jobsJson() throws PmixException {
    return single(JdvmProtocol.QUERY_JOBS, List.of());
  }

  /**
   * {@code jdvm.qry.jobsum}: every namespace as a JSON array, each job's processes summarised
   * (their count, by state, and the first few) rather than listed (docs/cli.md "jdvm nodes | allocs
   * | jobs").
   */
  public String jobsSummaryJson() throws PmixException {
    return single(JdvmProtocol.QUERY_JOBS_SUMMARY, List.of());
  }

  /**
   * {@code jdvm.qry.explain}: why a would-be spawn would go ahead or be refused, per node, as a
   * JSON object (docs/cli.md {@code jdvm explain}). {@code qualifiers} are the spawn's job infos (a
   * {@link SpawnRequest}'s {@code infos()}) with {@code jdvm.explain.procs}, or {@code
   * jdvm.explain.job}; nothing is spawned. Decided for this client, as its spawn would be.
   */
  public String explainJson(List<Info> qualifiers) throws PmixException {
    return single(JdvmProtocol.QUERY_EXPLAIN, qualifiers);
  }

  /** {@code jdvm.qry.tree}: the job genealogy with each job's allocations, as a JSON array. */
  public String treeJson() throws PmixException {
    return single(JdvmProtocol.QUERY_TREE, List.of());
  }

  private String single(String key, List<Info> qualifiers) throws PmixException {
    for (Info i : query(new Query(List.of(key), qualifiers))) {
      if (i.key().equals(key)) {
        return i.value().asString();
      }
    }
    throw new PmixException(PmixStatus.ERR_NOT_FOUND, "no answer to " + key);
  }

  /**
   * {@code jdvm output}: what the DVM kept of the job's output goes to this client's {@link
   * OutputHandler} (each line labelled {@code [JOB,RANK]<stdout>: }), then the answer says what was
   * dropped; with {@code follow}, the job's output goes on until it ends ({@link
   * OutputReplay#end}). A job the DVM keeps no output of is {@code PMIX_ERR_NOT_FOUND}.
   */
  public OutputReplay replayOutput(String nspace, boolean follow) throws PmixException {
    return await(OutputReplay.ask(this, inbox, nspace, follow));
  }

  // ---- events --------------------------------------------------------------------------------

  /**
   * Registers a handler for events with these codes, or for every event when none is given (a
   * default handler). The handler runs on the delivery thread.
   *
   * <pre>{@code
   * Registration r = dvm.onEvents(e -> System.out.println("warning: "
   *     + e.info(PmixKeys.TIME_REMAINING) + " s left"), PmixStatus.ALLOC_TIMEOUT_WARNING);
   * r.close();
   * }</pre>
   */
  public Registration onEvents(Consumer<Event> handler, int... codes) throws PmixException {
    return await(onEventsAsync(handler, codes));
  }

  public CompletableFuture<Registration> onEventsAsync(Consumer<Event> handler, int... codes) {
    List<Integer> list = new ArrayList<>(codes.length);
    for (int c : codes) {
      list.add(c);
    }
    return register(new Registration(this, list, handler, false));
  }

  /**
   * Follows the operator feed (docs/protocol.md): every state change of the DVM, as an event with
   * status {@link JdvmProtocol#EVENT_CHANGE} carrying {@link JdvmProtocol#CHANGE} (a line) and
   * {@link JdvmProtocol#CHANGE_JSON}.
   *
   * <pre>{@code
   * dvm.followChanges(e -> System.out.println(e.info(JdvmProtocol.CHANGE)));
   * }</pre>
   */
  public Registration followChanges(Consumer<Event> handler) throws PmixException {
    return await(
        register(new Registration(this, List.of(JdvmProtocol.EVENT_CHANGE), handler, true)));
  }

  private CompletableFuture<Registration> register(Registration r) {
    inbox.registrations.add(r);
    Packer p = packer().packCommand(Commands.REGEVENTS_CMD).packSize(r.codes.size());
    if (!r.codes.isEmpty()) {
      p.pack(DataType.STATUS, new ArrayList<Object>(toLongs(r.codes)));
    }
    p.packInfos(r.feed ? List.of(Info.of(JdvmProtocol.EVENT_FEED, Value.bool(true))) : List.of());
    CompletableFuture<Registration> f =
        wire.call(
            p.toByteArray(),
            in -> {
              int status = in.unpackStatus();
              if (status != PmixStatus.SUCCESS) {
                throw new PmixException(status, "event registration refused");
              }
              return r;
            });
    f.whenComplete(
        (ok, t) -> {
          if (t != null) {
            inbox.registrations.remove(r);
          }
        });
    return f;
  }

  private static List<Long> toLongs(List<Integer> codes) {
    List<Long> out = new ArrayList<>(codes.size());
    for (int c : codes) {
      out.add((long) c);
    }
    return out;
  }

  /** Called by {@link Registration#close}: tells the DVM of codes nobody here wants any more. */
  void deregister(Registration r) {
    inbox.registrations.remove(r);
    List<Integer> gone = new ArrayList<>();
    if (r.codes.isEmpty()) {
      if (inbox.registrations.stream().noneMatch(x -> x.codes.isEmpty())) {
        gone.add(Integer.MIN_VALUE);
      }
    } else {
      for (int c : r.codes) {
        if (inbox.registrations.stream().noneMatch(x -> x.codes.contains(c))) {
          gone.add(c);
        }
      }
    }
    if (gone.isEmpty() || closed) {
      return;
    }
    Packer p = packer().packCommand(Commands.DEREGEVENTS_CMD);
    for (int c : gone) {
      p.packStatus(c);
    }
    try {
      wire.sendOneWay(p.toByteArray());
    } catch (PmixException e) {
      // The connection is gone: nothing will be delivered anyway.
    }
  }

  /**
   * {@code PMIx_Notify_event}: sends an event to the peers its range covers. The scheduler's {@code
   * PMIX_ALLOC_TIMEOUT_WARNING} goes to the allocation's requester alone.
   *
   * <pre>{@code
   * scheduler.notifyEvent(PmixStatus.ALLOC_TIMEOUT_WARNING, DataRange.CUSTOM, List.of(
   *     Info.of(PmixKeys.ALLOC_ID, Value.string(allocId)),
   *     Info.of(PmixKeys.TIME_REMAINING, Value.uint32(60))));
   * }</pre>
   */
  public void notifyEvent(int status, DataRange range, List<Info> infos) throws PmixException {
    await(notifyEventAsync(status, range, infos));
  }

  public CompletableFuture<Void> notifyEventAsync(int status, DataRange range, List<Info> infos) {
    byte[] body = new NotifyRequest(status, range.code(), forWire(infos)).write(wire.format);
    return wire.call(body, in -> statusOrThrow(in, "notification"));
  }

  // ---- job control ---------------------------------------------------------------------------

  /**
   * Sends a signal to every process of a job (the job itself, its ancestors and the scheduler may).
   *
   * <pre>{@code
   * dvm.signal(job.nspace(), Signal.TERM);
   * }</pre>
   */
  public void signal(String nspace, Signal signal) throws PmixException {
    signal(nspace, signal.number());
  }

  /** Sends the signal with this Linux number, named in {@link Signal} or not (a real-time one). */
  public void signal(String nspace, int signal) throws PmixException {
    await(jobControlAsync(nspace, Info.of(PmixKeys.JOB_CTRL_SIGNAL, Value.integer(signal))));
  }

  /**
   * Terminates a job: its processes are killed and its end is reported.
   *
   * <pre>{@code
   * dvm.terminate(job.nspace());
   * }</pre>
   */
  public void terminate(String nspace) throws PmixException {
    await(jobControlAsync(nspace, Info.of(PmixKeys.JOB_CTRL_TERMINATE, Value.bool(true))));
  }

  public CompletableFuture<Void> jobControlAsync(String nspace, Info directive) {
    byte[] body =
        new JobControlRequest(List.of(Proc.wildcard(nspace)), List.of(directive))
            .write(wire.format);
    return wire.call(body, in -> statusOrThrow(in, "job control"));
  }

  // ---- session control (scheduler) -----------------------------------------------------------

  /**
   * {@code PMIx_Session_control}: the answer carries the session's ids ({@code
   * PMIX_SESSION_CTRL_ID}, {@code PMIX_SESSION_ID}, {@code PMIX_ALLOC_ID}, and {@code PMIX_NSPACE}
   * when it ran apps).
   *
   * <pre>{@code
   * AllocationResult s = scheduler.sessionControl(
   *     SessionControlRequest.instantiate(7).nodes("spare0:4").build());
   * }</pre>
   */
  public AllocationResult sessionControl(SessionControlRequest request) throws PmixException {
    return await(sessionControlAsync(request));
  }

  public CompletableFuture<AllocationResult> sessionControlAsync(SessionControlRequest request) {
    byte[] body =
        new SessionCtrlRequest(request.sessionId(), forWire(request.directives()))
            .write(wire.format);
    return wire.call(body, in -> AllocationResult.of(infosOrThrow(in, "session control")));
  }

  // ---- wire-up and stdin ---------------------------------------------------------------------

  /**
   * The wire-up operations of a launched process: put, commit, fence, get, publish, lookup,
   * unpublish, connect, disconnect and log (docs/wireup.md §c), so a Java rank wires up beside C
   * ranks.
   */
  public WireUp wireUp() {
    return wireUp;
  }

  /**
   * {@code IOF_PUSH} (docs/wireup.md §c.7): a chunk of stdin for {@code target}'s pipe (rank
   * WILDCARD: every process of its job that reads one); an empty chunk is the end of file. Returns
   * whether the target's stdin is still open ({@code false}: {@code PMIX_ERR_IOF_COMPLETE}, stop
   * forwarding).
   *
   * @throws PmixException the DVM's refusal, e.g. {@code PMIX_ERR_NO_PERMISSIONS}
   */
  public boolean pushStdin(Proc target, byte[] chunk) throws PmixException {
    return await(pushStdinAsync(target, chunk));
  }

  public CompletableFuture<Boolean> pushStdinAsync(Proc target, byte[] chunk) {
    return wire.call(
        new IofPushRequest(List.of(target), List.of(), chunk).write(wire.format),
        in -> {
          int status = in.unpackStatus();
          if (status == PmixStatus.ERR_IOF_COMPLETE) {
            return false;
          }
          if (status != PmixStatus.SUCCESS) {
            throw new PmixException(status, "stdin refused");
          }
          return true;
        });
  }

  /**
   * Forwards {@code in} to {@code target}'s stdin until its end (then the end of file), on a thread
   * of its own: chunks of up to {@value #STDIN_CHUNK_BYTES} bytes, at most {@value #STDIN_WINDOW}
   * unanswered, so a slow reader slows the reading of {@code in} down and nothing piles up on
   * either side. Stops early, without error, when the target's stdin closes. The future completes
   * when forwarding ended; it fails only on a refusal or a lost connection.
   */
  public CompletableFuture<Void> forwardStdin(InputStream in, Proc target) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                StdinForwarder.run(this, in, target, STDIN_CHUNK_BYTES, STDIN_WINDOW);
                done.complete(null);
              } catch (PmixException e) {
                done.completeExceptionally(e);
              }
            },
            "jdvm-stdin");
    t.setDaemon(true);
    t.start();
    return done;
  }

  /**
   * Runs {@code action} when the program exits (Ctrl-C, SIGTERM, {@code System.exit}) while this
   * client is open, before its connection is closed, so the action can still reach the DVM (end a
   * job, say). Actions run in the order registered, on the client's own exit hook, each bounded by
   * what it waits for.
   */
  public void onExit(Runnable action) {
    wire.beforeExit(Objects.requireNonNull(action, "action"));
  }

  /**
   * Completes once every event and output that arrived so far has reached its handler: a refused
   * spawn's reply can overtake the stderr its job was given on the way to the handler (the reason
   * the DVM gives for a binding it cannot make, say).
   */
  public CompletableFuture<Void> delivered() {
    return inbox.drained();
  }

  // ---- the DVM -------------------------------------------------------------------------------

  /**
   * Completes once the connection is gone — closed by {@link #close} or lost because the DVM went
   * away — after every event and output that arrived before.
   *
   * <pre>{@code
   * dvm.followChanges(e -> System.out.println(e.info(JdvmProtocol.CHANGE)));
   * dvm.disconnected().join();   // until the DVM stops
   * }</pre>
   */
  public CompletableFuture<Void> disconnected() {
    return inbox.gone;
  }

  /**
   * JDVM_STOP (docs/protocol.md): the DVM ends every session and process and exits. Tools only.
   *
   * <pre>{@code
   * dvm.stopDvm();
   * }</pre>
   */
  public void stopDvm() throws PmixException {
    byte[] body = packer().packCommand(JdvmProtocol.STOP_CMD).toByteArray();
    await(wire.call(body, in -> statusOrThrow(in, "stop")));
  }

  /**
   * Finalizes and disconnects (bounded by {@value #FINALIZE_WAIT_MS} ms). For a tool this is its
   * namespace's termination: the dispositions of what it owns fire (decisions.md #11). Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (wire.isOpen()) {
      byte[] body = packer().packCommand(Commands.FINALIZE_CMD).toByteArray();
      try {
        wire.call(body, in -> statusOrThrow(in, "finalize"))
            .get(FINALIZE_WAIT_MS, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Finalize is best effort, as in libpmix: the connection closes either way.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    wire.close();
    inbox.stop();
    inbox.gone.complete(null);
  }

  /** Drops the connection without finalizing, as a crashing peer would (for fault tests). */
  void dropConnection() {
    closed = true;
    wire.close();
  }

  // ---- encoding ------------------------------------------------------------------------------

  private Packer packer() {
    return new Packer(wire.format);
  }

  /** A request and its reply, for the wire-up facet. */
  <T> CompletableFuture<T> call(byte[] body, Wire.Decoder<T> decoder) {
    return wire.call(body, decoder);
  }

  WireFormat format() {
    return wire.format;
  }

  /** This process's effective uid, which publish, lookup and unpublish carry. */
  long uid() {
    return Wire.ids()[0];
  }

  /**
   * A 4.2-era DVM ({@code v41}) has no type 75: inheritance goes as UINT8, as libpmix 4.2 sends.
   */
  private List<Info> forWire(List<Info> infos) {
    if (wire.format.component() == WireComponent.V61) {
      return infos;
    }
    List<Info> out = new ArrayList<>(infos.size());
    for (Info i : infos) {
      if (i.value().type() == DataType.ALLOC_INHERIT) {
        int code = (int) i.value().asLong();
        out.add(new Info(i.key(), i.flags(), Value.uint8(code)));
      } else {
        out.add(i);
      }
    }
    return out;
  }

  private static List<Info> infosOrThrow(Unpacker in, String what) throws PmixException {
    InfosReply reply = InfosReply.read(in);
    if (reply.status() != PmixStatus.SUCCESS) {
      throw new PmixException(reply.status(), what + " refused");
    }
    return reply.infos();
  }

  static Void statusOrThrow(Unpacker in, String what) throws PmixException {
    int status = StatusReply.read(in).status();
    if (status != PmixStatus.SUCCESS) {
      throw new PmixException(status, what + " refused");
    }
    return null;
  }

  static <T> T await(CompletableFuture<T> f) throws PmixException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw unwrap(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PmixException(PmixStatus.ERR_TIMEOUT, "interrupted");
    }
  }

  static PmixException unwrap(Throwable e) {
    Throwable c = e;
    while ((c instanceof ExecutionException || c instanceof CompletionException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    return c instanceof PmixException p ? p : new PmixException(PmixStatus.ERROR, c.toString(), c);
  }
}
