package org.jdvm.endpoint.serve;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.transport.PeerFormat;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.Checks;
import org.jdvm.pmix.body.Fields;
import org.jdvm.pmix.body.InfosReply;
import org.jdvm.pmix.body.StatusReply;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;

/**
 * One request's plumbing, in one place: the body to read, the peer it came from, submitting to the
 * DVM (bounded per connection), reading a view, and packing the reply in the peer's buffer type on
 * the request's tag — an error reply in the operation's {@link Operation.ErrorShape}. Operations
 * only parse and decide; they never touch a socket.
 */
public final class Exchange {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  /**
   * What one connection's requests share: where they go, the limits, how many of them wait for the
   * DVM now, and how fast the connection is read ({@link Pacing}).
   */
  record PeerContext(
      Upstream upstream, EndpointLimits limits, AtomicInteger pending, Pacing pacing) {
    PeerContext(Upstream upstream, EndpointLimits limits) {
      this(upstream, limits, new AtomicInteger(), new Pacing(limits));
    }
  }

  private final Connection conn;
  private final int tag;
  private final OperationTable.Row row;
  private final Unpacker in;
  private final PeerContext context;

  Exchange(Connection conn, int tag, OperationTable.Row row, Unpacker in, PeerContext context) {
    this.conn = conn;
    this.tag = tag;
    this.row = row;
    this.in = in;
    this.context = context;
  }

  // ---- what came in --------------------------------------------------------------------------

  public Connection connection() {
    return conn;
  }

  public Peer peer() {
    return conn.peer();
  }

  /** The process the request is made as. */
  public Proc self() {
    return conn.peer().proc();
  }

  /** The request's body, after its command. */
  public Unpacker in() {
    return in;
  }

  public EndpointLimits limits() {
    return context.limits();
  }

  /**
   * What the endpoint checks while a body is read: its limits and its rules ({@link
   * RequestChecks}), for a body codec's {@code read}.
   */
  public Checks<BadRequest> checks() {
    return new RequestChecks(limits());
  }

  /** {@code SIZE n | INFO…}, at most {@link EndpointLimits#infosPerRequest}. */
  public List<Info> infos() throws BadRequest {
    return Fields.readInfos(in, checks());
  }

  /** {@code SIZE n | PROC…}, at most {@link EndpointLimits#namespacesPerRequest}. */
  public List<Proc> procs() throws BadRequest {
    return Fields.readProcs(in, checks());
  }

  // ---- the DVM -------------------------------------------------------------------------------

  public Upstream upstream() {
    return context.upstream();
  }

  /** A fresh request id, for an operation that must note it before submitting. */
  public RequestId nextId() {
    return upstream().nextId();
  }

  /**
   * Submits a request; {@code then} gets the DVM's answer (a DVM that failed to take it answers
   * with {@link #statusOf}). Refused {@code PMIX_ERR_OUT_OF_RESOURCE} when the connection already
   * has {@link EndpointLimits#pendingRequests} waiting.
   */
  public void submit(RequestId id, Request request, Consumer<Upstream.Answer> then)
      throws BadRequest {
    reserve(1);
    context.pacing().started();
    upstream()
        .submit(id, request, context.pacing()::done)
        .whenComplete(
            (answer, t) -> {
              context.pending().decrementAndGet();
              then.accept(answer != null ? answer : new Upstream.Answer(statusOf(t), List.of()));
            });
  }

  /** Submits a request built with a fresh id. */
  public void submit(Function<RequestId, Request> request, Consumer<Upstream.Answer> then)
      throws BadRequest {
    RequestId id = nextId();
    submit(id, request.apply(id), then);
  }

  /** Submits the requests; {@code done} gets SUCCESS or the first refusal once all are answered. */
  public void submitAll(List<Function<RequestId, Request>> requests, IntConsumer done)
      throws BadRequest {
    reserve(requests.size());
    context.pending().addAndGet(-requests.size());
    AtomicInteger left = new AtomicInteger(requests.size());
    AtomicInteger first = new AtomicInteger(PmixStatus.SUCCESS);
    for (Function<RequestId, Request> r : requests) {
      submit(
          r,
          answer -> {
            if (answer.status() != PmixStatus.SUCCESS) {
              first.compareAndSet(PmixStatus.SUCCESS, answer.status());
            }
            if (left.decrementAndGet() == 0) {
              done.accept(first.get());
            }
          });
    }
  }

  private void reserve(int n) throws BadRequest {
    if (context.pending().addAndGet(n) > limits().pendingRequests()) {
      context.pending().addAndGet(-n);
      throw BadRequest.outOfResource(
          "more than " + limits().pendingRequests() + " requests of one connection waiting");
    }
  }

  /**
   * Reads from the DVM; {@code then} gets the result, a failure is answered as an error. Until it
   * is answered the read counts against the connection's {@link
   * EndpointLimits#inFlightPerConnection}.
   */
  public <T> void read(CompletableFuture<T> read, Consumer<T> then) {
    context.pacing().started();
    answered(read.whenComplete((r, t) -> context.pacing().done()), then);
  }

  private <T> void answered(CompletableFuture<T> read, Consumer<T> then) {
    read.whenComplete(
        (result, t) -> {
          if (t != null) {
            LOG.log(
                System.Logger.Level.WARNING,
                "peer=" + conn.index() + " cmd=" + row.command() + " read failed: " + t);
            fail(statusOf(t));
          } else {
            then.accept(result);
          }
        });
  }

  /**
   * Waits for an answer that may take long (a get waiting for a commit, a fence waiting for its
   * participants) within the connection's budget of waiting requests: refused {@code
   * PMIX_ERR_OUT_OF_RESOURCE} past {@link EndpointLimits#pendingRequests}; {@code then} gets the
   * answer, a failure is answered as an error.
   */
  public <T> void await(CompletableFuture<T> answer, Consumer<T> then) throws BadRequest {
    reserve(1);
    answered(answer.whenComplete((r, t) -> context.pending().decrementAndGet()), then);
  }

  /** How a failed future is reported to the peer: its input refused, or the DVM unreachable. */
  static int statusOf(Throwable t) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    return cause instanceof IllegalArgumentException
        ? PmixStatus.ERR_BAD_PARAM
        : PmixStatus.ERR_UNREACH;
  }

  // ---- what goes out -------------------------------------------------------------------------

  /** A packer in the peer's format. */
  public Packer packer() {
    return conn.packer();
  }

  /** The peer's wire format, what a reply body is written in. */
  public WireFormat format() {
    return conn.peer().format();
  }

  /** Sends a reply body on the request's tag. */
  public void reply(byte[] body) {
    conn.send(tag, body);
  }

  /** {@code STATUS}. */
  public void replyStatus(int status) {
    reply(new StatusReply(status).write(format()));
  }

  /** {@code STATUS | SIZE n | INFO…} on success; {@code STATUS | SIZE 0} otherwise. */
  public void replyInfos(Upstream.Answer answer) {
    if (answer.status() != PmixStatus.SUCCESS) {
      reply(InfosReply.status(answer.status()).write(format()));
      return;
    }
    reply(
        new InfosReply(answer.status(), PeerFormat.infos(answer.infos(), format()))
            .write(format()));
  }

  /** An error reply in the operation's shape (none for a command libpmix does not wait on). */
  public void fail(int status) {
    byte[] body = row.errorShape().error(packer(), status);
    if (body != null) {
      reply(body);
    }
  }
}
