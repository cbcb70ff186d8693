package org.jdvm.server.pmix;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.query.CoreView;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;

/**
 * Serves one message at a time from an admitted connection (issue 4, "Commands served"): decodes
 * the body, translates it into a core request or a read of the core's views, and answers on the
 * request's tag with the payload a libpmix 4.2.2 caller needs (research REPORT.md §0.3): SIZE for
 * query and allocation, the namespace for spawn, the server id for IOF_PULL. DEREGEVENTS gets no
 * answer; anything unknown gets {@code PMIX_ERR_NOT_SUPPORTED}. A malformed body is answered with
 * the decoder's status and the connection goes on.
 *
 * <p>Nothing here blocks: requests go to the controller, and their answers come back through {@link
 * Pending} on the controller thread, which only packs and queues them.
 */
final class Dispatcher {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final PmixEndpoint endpoint;

  Dispatcher(PmixEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  void handle(Connection c, int tag, byte[] body) {
    Unpacker in = new Unpacker(c.peer().format(), body);
    int command = -1;
    try {
      command = in.unpackCommand();
      serve(c, tag, command, in);
    } catch (WireException e) {
      if (e.poisonsConnection()) {
        c.close("broken message: " + e.getMessage());
      } else if (command != Commands.DEREGEVENTS_CMD) {
        LOG.log(
            System.Logger.Level.INFO,
            "peer="
                + c.index()
                + " cmd="
                + Commands.name(command)
                + " malformed="
                + e.getMessage());
        c.send(tag, error(c, command, e.status()));
      }
    } catch (BadRequest e) {
      LOG.log(
          System.Logger.Level.INFO,
          "peer="
              + c.index()
              + " cmd="
              + Commands.name(command)
              + " refused=\""
              + e.getMessage()
              + "\"");
      c.send(tag, error(c, command, e.status()));
    }
  }

  private void serve(Connection c, int tag, int command, Unpacker in) throws BadRequest {
    switch (command) {
      case Commands.REQ_CMD -> req(c, tag);
      case Commands.ABORT_CMD -> abort(c, tag, in);
      case Commands.COMMIT_CMD -> {} // one-way in libpmix: nothing to answer, nothing kept
      case Commands.GETNB_CMD -> get(c, tag, in);
      case Commands.FINALIZE_CMD -> {
        c.send(tag, status(c, PmixStatus.SUCCESS));
        c.depart(false);
      }
      case Commands.SPAWNNB_CMD -> spawn(c, tag, in);
      case Commands.NOTIFY_CMD -> notify(c, tag, in);
      case Commands.REGEVENTS_CMD -> register(c, tag, in);
      case Commands.DEREGEVENTS_CMD -> {
        while (in.hasRemaining()) {
          c.deregister(in.unpackStatus());
        }
      }
      case Commands.QUERY_CMD -> query(c, tag, in);
      case Commands.ALLOC_CMD -> allocate(c, tag, in);
      case Commands.JOB_CONTROL_CMD -> jobControl(c, tag, in);
      case Commands.IOF_PULL_CMD -> iofPull(c, tag, in);
      case Commands.IOF_DEREG_CMD -> iofDeregister(c, tag, in);
      case Commands.SESSION_CTRL_CMD -> sessionControl(c, tag, in);
      case JdvmProtocol.STOP_CMD -> stop(c, tag);
      default -> c.send(tag, error(c, command, PmixStatus.ERR_NOT_SUPPORTED));
    }
  }

  // ---- client data ---------------------------------------------------------------------------

  /** REQ_CMD: a tool's namespace; a launched process's namespace and job data. */
  private void req(Connection c, int tag) {
    Peer p = c.peer();
    if (p.role() != Peer.Role.APPLICATION) {
      c.send(tag, packer(c).packString(p.proc().nspace()).toByteArray());
      return;
    }
    read(
        c,
        tag,
        Commands.REQ_CMD,
        v -> ClientData.jobInfo(v, p.proc()),
        kvals -> {
          Packer out = packer(c).packString(p.proc().nspace());
          for (KVal k : kvals.orElse(List.of())) {
            out.pack(DataType.KVAL, k);
          }
          c.send(tag, out.toByteArray());
        });
  }

  /** GETNB: {@code STRING nspace | PROC_RANK | SIZE n | INFO | STRING key}. */
  private void get(Connection c, int tag, Unpacker in) {
    String nspace = in.unpackString();
    int rank = (int) in.unpackInteger(DataType.PROC_RANK);
    in.unpackInfos();
    String key = in.unpackString();
    read(
        c,
        tag,
        Commands.GETNB_CMD,
        v -> ClientData.lookup(v, nspace == null ? "" : nspace, rank, key),
        found -> {
          if (found.isEmpty()) {
            c.send(tag, status(c, PmixStatus.ERR_NOT_FOUND));
            return;
          }
          byte[] data =
              packer(c)
                  .packProc(new Proc(nspace, rank))
                  .pack(DataType.KVAL, found.get())
                  .toByteArray();
          c.send(
              tag,
              packer(c)
                  .packStatus(PmixStatus.SUCCESS)
                  .pack(DataType.BYTE_OBJECT, ByteObject.of(data))
                  .toByteArray());
        });
  }

  // ---- job life ------------------------------------------------------------------------------

  /** ABORT: {@code STATUS | STRING msg | SIZE n | PROC…}; ends the named jobs (none: its own). */
  private void abort(Connection c, int tag, Unpacker in) throws BadRequest {
    int status = in.unpackStatus();
    String message = in.unpackString();
    List<Proc> procs = procs(in);
    Proc self = c.peer().proc();
    LOG.log(
        System.Logger.Level.INFO,
        "peer=" + c.index() + " proc=" + self + " abort=" + status + " msg=\"" + message + "\"");
    List<String> nspaces = new ArrayList<>();
    for (Proc p : procs.isEmpty() ? List.of(self) : procs) {
      if (!nspaces.contains(p.nspace())) {
        nspaces.add(p.nspace());
      }
    }
    List<Function<RequestId, Request>> requests = new ArrayList<>();
    for (String ns : nspaces) {
      requests.add(id -> new Request.TerminateJob(id, self, ns));
    }
    all(requests, s -> c.send(tag, status(c, s)));
  }

  /** SPAWNNB: {@code SIZE n | INFO | SIZE napps | APP}; answered {@code STATUS | STRING nspace}. */
  private void spawn(Connection c, int tag, Unpacker in) throws BadRequest {
    List<Info> jobInfos = in.unpackInfos();
    var apps = in.unpackApps();
    Peer p = c.peer();
    RequestId id = endpoint.pending.next();
    Translator.Spawn s = Translator.spawn(id, p.proc(), p.role().isToolClass(), jobInfos, apps);
    endpoint.outcomes.expectSpawn(
        id, new OutcomeWatcher.SpawnIntent(c, s.channels(), s.notifyCompletion()));
    endpoint.pending.expect(
        id,
        answer -> {
          endpoint.outcomes.spawnAnswered(id);
          boolean ok = answer.status() == PmixStatus.SUCCESS;
          c.send(
              tag,
              packer(c)
                  .packStatus(answer.status())
                  .packString(ok ? answer.info(PmixKeys.NSPACE) : null)
                  .toByteArray());
        });
    submit(id, s.request());
  }

  /** JOB_CONTROL: {@code SIZE n | PROC… | SIZE n | INFO}; answered {@code STATUS | SIZE 0}. */
  private void jobControl(Connection c, int tag, Unpacker in) throws BadRequest {
    List<Proc> targets = procs(in);
    List<Info> directives = in.unpackInfos();
    Proc self = c.peer().proc();
    List<Function<RequestId, Request>> requests = new ArrayList<>();
    for (Translator.JobAction a : Translator.jobControl(self, targets, directives)) {
      requests.add(id -> a.toRequest(id, self));
    }
    all(requests, s -> c.send(tag, packer(c).packStatus(s).packSize(0).toByteArray()));
  }

  // ---- allocation and sessions ---------------------------------------------------------------

  /** ALLOC: {@code ALLOC_DIRECTIVE | SIZE n | INFO}; answered {@code STATUS | SIZE n | INFO}. */
  private void allocate(Connection c, int tag, Unpacker in) throws BadRequest {
    int directive = (int) in.unpackInteger(DataType.ALLOC_DIRECTIVE);
    List<Info> infos = in.unpackInfos();
    RequestId id = endpoint.pending.next();
    Request.Allocate request = Translator.allocate(id, c.peer().proc(), directive, infos);
    endpoint.pending.expect(id, answer -> c.send(tag, infos(c, answer)));
    submit(id, request);
  }

  /** SESSION_CTRL: {@code UINT32 session | SIZE n | INFO}; answered like an allocation. */
  private void sessionControl(Connection c, int tag, Unpacker in) throws BadRequest {
    long sessionId = in.unpackInteger(DataType.UINT32);
    List<Info> infos = in.unpackInfos();
    RequestId id = endpoint.pending.next();
    Request.SessionControl request =
        Translator.sessionControl(id, c.peer().proc(), sessionId, infos);
    endpoint.pending.expect(id, answer -> c.send(tag, infos(c, answer)));
    submit(id, request);
  }

  // ---- queries -------------------------------------------------------------------------------

  /** QUERY: {@code SIZE n | QUERY…}; answered {@code STATUS | SIZE n | INFO}. */
  private void query(Connection c, int tag, Unpacker in) {
    List<Query> queries = in.unpackQueries();
    read(
        c,
        tag,
        Commands.QUERY_CMD,
        v -> QueryAnswers.answer(v, queries),
        r -> c.send(tag, infos(c, new Pending.Answer(r.status(), r.infos()))));
  }

  // ---- events --------------------------------------------------------------------------------

  /**
   * NOTIFY from a peer: {@code STATUS | DATA_RANGE | SIZE n | INFO}. The scheduler's timeout
   * warning goes to the core, which relays it to the allocation's requester alone (spec 8.2.1.9.5);
   * any other event is delivered by its range.
   */
  private void notify(Connection c, int tag, Unpacker in) throws BadRequest {
    int status = in.unpackStatus();
    int range = (int) in.unpackInteger(DataType.DATA_RANGE);
    List<Info> infos = in.unpackInfos();
    if (status == PmixStatus.ALLOC_TIMEOUT_WARNING && c.peer().role() == Peer.Role.SCHEDULER) {
      String allocId = null;
      Long remaining = null;
      for (Info i : infos) {
        if (i.key().equals(PmixKeys.ALLOC_ID)) {
          allocId = Values.string(i);
        } else if (i.key().equals(PmixKeys.TIME_REMAINING)) {
          remaining = Values.unsigned(i);
        }
      }
      if (allocId == null) {
        throw BadRequest.param("a timeout warning without PMIX_ALLOC_ID");
      }
      endpoint.dvm().submit(new Report.SchedulerTimeoutWarning(allocId, remaining));
    } else {
      endpoint.events.fromPeer(c, status, range, infos);
    }
    c.send(tag, status(c, PmixStatus.SUCCESS));
  }

  /** REGEVENTS: {@code SIZE n | STATUS… | SIZE n | INFO}; no codes is a default handler. */
  private void register(Connection c, int tag, Unpacker in) throws BadRequest {
    long n = in.unpackSize();
    List<Integer> codes = new ArrayList<>();
    if (n > 0) {
      List<Object> values = in.unpack(DataType.STATUS);
      if (values.size() != n) {
        throw new BadRequest(PmixStatus.ERR_UNPACK_FAILURE, "SIZE " + n + " but " + values.size());
      }
      for (Object v : values) {
        codes.add((int) (long) (Long) v);
      }
    }
    boolean feed = false;
    for (Info i : in.unpackInfos()) {
      if (i.key().equals(JdvmProtocol.EVENT_FEED)) {
        feed = Values.bool(i);
      }
    }
    if (feed) {
      endpoint.events.subscribeFeed(c, codes);
    } else {
      c.register(codes, false);
    }
    c.send(tag, status(c, PmixStatus.SUCCESS));
  }

  // ---- output --------------------------------------------------------------------------------

  /** IOF_PULL: {@code SIZE n | PROC… | SIZE n | INFO | IOF_CHANNEL | SIZE id}. */
  private void iofPull(Connection c, int tag, Unpacker in) {
    List<Proc> procs = procs(in);
    in.unpackInfos();
    int channels = (int) in.unpackInteger(DataType.IOF_CHANNEL);
    long localId = in.unpackSize();
    long serverId = endpoint.output.pull(c, procs, channels, localId);
    c.send(tag, packer(c).packStatus(PmixStatus.SUCCESS).packSize(serverId).toByteArray());
  }

  /** IOF_DEREG: {@code SIZE n | INFO | SIZE server id}. */
  private void iofDeregister(Connection c, int tag, Unpacker in) {
    in.unpackInfos();
    long serverId = in.unpackSize();
    boolean found = endpoint.output.deregister(c, serverId);
    c.send(tag, status(c, found ? PmixStatus.SUCCESS : PmixStatus.ERR_NOT_FOUND));
  }

  // ---- the DVM -------------------------------------------------------------------------------

  /** JDVM_STOP (docs/protocol.md): tools of the DVM's uid may stop it. */
  private void stop(Connection c, int tag) {
    if (!c.peer().role().isToolClass()) {
      c.send(tag, status(c, PmixStatus.ERR_NO_PERMISSIONS));
      return;
    }
    LOG.log(System.Logger.Level.INFO, "peer=" + c.index() + " proc=" + c.peer().proc() + " stop");
    c.send(tag, status(c, PmixStatus.SUCCESS));
    endpoint.requestStop();
  }

  // ---- helpers -------------------------------------------------------------------------------

  private void submit(RequestId id, Request request) {
    endpoint
        .dvm()
        .submit(request)
        .whenComplete(
            (o, t) -> {
              if (t != null) {
                endpoint.pending.complete(id, failure(t), List.of());
              }
            });
  }

  /** Submits the requests; {@code done} gets SUCCESS or the first refusal once all are answered. */
  private void all(List<Function<RequestId, Request>> requests, IntConsumer done) {
    AtomicInteger left = new AtomicInteger(requests.size());
    AtomicInteger first = new AtomicInteger(PmixStatus.SUCCESS);
    for (Function<RequestId, Request> r : requests) {
      RequestId id =
          endpoint.pending.open(
              answer -> {
                if (answer.status() != PmixStatus.SUCCESS) {
                  first.compareAndSet(PmixStatus.SUCCESS, answer.status());
                }
                if (left.decrementAndGet() == 0) {
                  done.accept(first.get());
                }
              });
      submit(id, r.apply(id));
    }
  }

  private <T> void read(
      Connection c, int tag, int command, Function<CoreView, T> query, Consumer<T> then) {
    endpoint
        .dvm()
        .read(query)
        .whenComplete(
            (result, t) -> {
              if (t != null) {
                c.send(tag, error(c, command, failure(t)));
              } else {
                then.accept(result);
              }
            });
  }

  private static int failure(Throwable t) {
    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    return cause instanceof IllegalArgumentException
        ? PmixStatus.ERR_BAD_PARAM
        : PmixStatus.ERR_UNREACH;
  }

  private static List<Proc> procs(Unpacker in) {
    long n = in.unpackSize();
    if (n == 0) {
      return List.of();
    }
    List<Object> values = in.unpack(DataType.PROC);
    if (values.size() != n) {
      throw WireException.message(
          PmixStatus.ERR_UNPACK_FAILURE, in.position(), "SIZE " + n + " but " + values.size());
    }
    List<Proc> procs = new ArrayList<>(values.size());
    for (Object v : values) {
      procs.add((Proc) v);
    }
    return procs;
  }

  private static Packer packer(Connection c) {
    return new Packer(c.peer().format());
  }

  private static byte[] status(Connection c, int status) {
    return packer(c).packStatus(status).toByteArray();
  }

  /** {@code STATUS | SIZE n | INFO…} on success; {@code STATUS | SIZE 0} otherwise. */
  private static byte[] infos(Connection c, Pending.Answer answer) {
    Packer p = packer(c).packStatus(answer.status());
    if (answer.status() != PmixStatus.SUCCESS) {
      return p.packSize(0).toByteArray();
    }
    return p.packInfos(Values.forPeer(answer.infos(), c.peer().format())).toByteArray();
  }

  /** An error reply shaped as each operation's caller parses it (research REPORT.md §2). */
  static byte[] error(Connection c, int command, int status) {
    Packer p = packer(c).packStatus(status);
    switch (command) {
      case Commands.SPAWNNB_CMD -> p.packString(null);
      case Commands.QUERY_CMD,
          Commands.ALLOC_CMD,
          Commands.JOB_CONTROL_CMD,
          Commands.SESSION_CTRL_CMD ->
          p.packSize(0);
      default -> {}
    }
    return p.toByteArray();
  }
}
