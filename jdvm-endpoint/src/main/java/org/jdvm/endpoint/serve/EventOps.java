package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jdvm.core.Report;
import org.jdvm.endpoint.deliver.EventRouter;
import org.jdvm.endpoint.deliver.OutputRouter;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.IofDeregRequest;
import org.jdvm.pmix.body.IofPullRequest;
import org.jdvm.pmix.body.IofPushRequest;
import org.jdvm.pmix.body.NotifyRequest;

/**
 * Events and I/O forwarding (spec §8.2.1.9.5; docs/protocol.md "How jdvm reads the standard
 * commands"): NOTIFY, REGEVENTS, DEREGEVENTS, IOF_PULL, IOF_DEREG and IOF_PUSH (stdin). What a
 * connection registers is kept by the delivering half ({@link EventRouter}, {@link OutputRouter});
 * this file reads the requests and bounds them.
 */
public final class EventOps {
  private final EventRouter events;
  private final OutputRouter output;

  public EventOps(EventRouter events, OutputRouter output) {
    this.events = events;
    this.output = output;
  }

  /**
   * NOTIFY from a peer ({@link NotifyRequest}). The scheduler's timeout warning goes to the core,
   * which relays it to the allocation's requester alone (spec §8.2.1.9.5); any other event is
   * delivered by its range.
   */
  void notify(Exchange x) throws BadRequest {
    NotifyRequest request = NotifyRequest.read(x.in(), x.checks());
    int status = request.status();
    DataRange range = DataRange.fromCode(request.range());
    List<Info> infos = request.infos();
    if (status == PmixStatus.ALLOC_TIMEOUT_WARNING && x.peer().role() == Peer.Role.SCHEDULER) {
      x.upstream().report(timeoutWarning(infos));
    } else if (range != null) { // a range PMIx does not define reaches no other peer
      List<Proc> custom = range == DataRange.CUSTOM ? customRange(infos) : List.of();
      events.fromPeer(x.connection(), status, range, custom, infos);
    }
    x.replyStatus(PmixStatus.SUCCESS);
  }

  private static Report timeoutWarning(List<Info> infos) throws BadRequest {
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
    return new Report.SchedulerTimeoutWarning(allocId, remaining);
  }

  private static List<Proc> customRange(List<Info> infos) throws BadRequest {
    for (Info i : infos) {
      if (i.key().equals(PmixKeys.EVENT_CUSTOM_RANGE)) {
        return Values.procs(i);
      }
    }
    throw BadRequest.param("a CUSTOM range without pmix.evrange");
  }

  /** REGEVENTS: {@code SIZE n | STATUS… | SIZE n | INFO}; no codes is a default handler. */
  void register(Exchange x) throws BadRequest {
    long n = x.in().unpackSize();
    List<Integer> codes = new ArrayList<>();
    if (n > 0) {
      List<Object> values = x.in().unpack(DataType.STATUS);
      if (values.size() != n) {
        throw new BadRequest(PmixStatus.ERR_UNPACK_FAILURE, "SIZE " + n + " but " + values.size());
      }
      for (Object v : values) {
        codes.add((int) (long) (Long) v);
      }
    }
    int limit = x.limits().eventCodesPerConnection();
    if (events.registeredCodes(x.connection()) + codes.size() > limit) {
      throw BadRequest.outOfResource("more than " + limit + " event codes on one connection");
    }
    boolean feed = false;
    for (Info i : x.infos()) {
      if (i.key().equals(JdvmProtocol.EVENT_FEED)) {
        feed = Values.bool(i);
      }
    }
    if (feed) {
      events.subscribeFeed(x.connection(), codes);
    } else {
      events.register(x.connection(), codes);
    }
    x.replyStatus(PmixStatus.SUCCESS);
  }

  /** DEREGEVENTS: {@code STATUS…}; libpmix does not wait for an answer, so none is sent. */
  void deregister(Exchange x) {
    while (x.in().hasRemaining()) {
      events.deregister(x.connection(), x.in().unpackStatus());
    }
  }

  /** IOF_PULL ({@link IofPullRequest}); answered {@code STATUS | SIZE server id}. */
  void iofPull(Exchange x) throws BadRequest {
    IofPullRequest request = IofPullRequest.read(x.in(), x.checks());
    boolean replay = false;
    boolean follow = false;
    for (Info i : request.directives()) {
      switch (i.key()) {
        case JdvmProtocol.IOF_REPLAY -> replay = Values.bool(i);
        case JdvmProtocol.IOF_FOLLOW -> follow = Values.bool(i);
        default -> {}
      }
    }
    if (replay) {
      replay(x, request, follow);
      return;
    }
    int limit = x.limits().iofPullsPerConnection();
    if (output.pulls(x.connection()) >= limit) {
      throw BadRequest.outOfResource("more than " + limit + " output registrations");
    }
    long serverId =
        output.pull(x.connection(), request.procs(), request.channels(), request.localId());
    x.reply(IofPullRequest.writeReply(x.format(), PmixStatus.SUCCESS, serverId));
  }

  /**
   * IOF_PULL with {@code jdvm.iof.replay} ({@code jdvm output JOB [--follow]}, docs/protocol.md
   * "Stored output"): the job's kept output, then the reply with the replay's facts; a follow
   * counts among the connection's pulls. Any admitted peer may read any job's output, as it may
   * list every job ({@code jdvm.qry.jobs}) and pull any job's output: only the DVM's owner and
   * holders of its secret are ever admitted.
   */
  private void replay(Exchange x, IofPullRequest request, boolean follow) throws BadRequest {
    if (request.procs().size() != 1 || request.procs().get(0).rank() != Proc.RANK_WILDCARD) {
      throw BadRequest.param("a replay names one job, every rank of it");
    }
    int limit = x.limits().iofPullsPerConnection();
    if (follow && output.pulls(x.connection()) >= limit) {
      throw BadRequest.outOfResource("more than " + limit + " output registrations");
    }
    String nspace = request.procs().get(0).nspace();
    OutputRouter.Replayed r = output.replay(x.connection(), nspace, request.localId(), follow);
    if (r == null) {
      throw new BadRequest(PmixStatus.ERR_NOT_FOUND, "no output of job " + nspace);
    }
    List<Info> facts = new ArrayList<>();
    facts.add(Info.of(JdvmProtocol.IOF_DROPPED, Value.uint64(r.droppedBytes())));
    facts.add(Info.of(JdvmProtocol.IOF_WRITTEN, Value.uint64(r.writtenBytes())));
    facts.add(Info.of(JdvmProtocol.IOF_ENDED, Value.bool(r.ended())));
    if (r.ended()) {
      facts.add(Info.of(PmixKeys.JOB_TERM_STATUS, Value.status(r.status())));
      facts.add(Info.of(PmixKeys.EXIT_CODE, Value.integer(r.exitCode())));
    }
    x.reply(IofPullRequest.writeReplayReply(x.format(), PmixStatus.SUCCESS, r.serverId(), facts));
  }

  /**
   * IOF_PUSH ({@link IofPushRequest}, docs/wireup.md §c.7): a chunk of the pusher's stdin for the
   * targets' pipes; an empty chunk is the end of file, and a missing one forwards nothing. The
   * chunk is read only once the head is accepted. Answered {@code STATUS} once every target took
   * the chunk: SUCCESS, {@code PMIX_ERR_IOF_COMPLETE} when no target's stdin is open any more (a
   * libpmix tool then stops forwarding), or the first refusal. A full pipe holds this connection's
   * reader until it has room (bounded): a slow reader slows its feeder down.
   */
  void iofPush(Exchange x) throws BadRequest {
    List<Proc> targets = IofPushRequest.readHead(x.in(), x.checks()).targets();
    if (targets.isEmpty()) {
      throw BadRequest.param("IOF_PUSH names no target");
    }
    byte[] chunk = IofPushRequest.readData(x.in());
    if (chunk == null) {
      x.replyStatus(PmixStatus.SUCCESS);
      return;
    }
    List<CompletableFuture<Integer>> answers = new ArrayList<>(targets.size());
    for (Proc t : targets) {
      answers.add(x.upstream().pushStdin(x.self(), t, chunk));
    }
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .whenComplete((ok, t) -> x.replyStatus(pushStatus(answers)));
  }

  /** The first refusal; else SUCCESS if any target took the chunk; else IOF_COMPLETE. */
  private static int pushStatus(List<CompletableFuture<Integer>> answers) {
    boolean took = false;
    for (CompletableFuture<Integer> a : answers) {
      int s = a.isCompletedExceptionally() ? PmixStatus.ERR_UNREACH : a.join();
      if (s != PmixStatus.SUCCESS && s != PmixStatus.ERR_IOF_COMPLETE) {
        return s;
      }
      took |= s == PmixStatus.SUCCESS;
    }
    return took ? PmixStatus.SUCCESS : PmixStatus.ERR_IOF_COMPLETE;
  }

  /** IOF_DEREG ({@link IofDeregRequest}). */
  void iofDeregister(Exchange x) throws BadRequest {
    long serverId = IofDeregRequest.read(x.in(), x.checks()).serverId();
    boolean found = output.deregister(x.connection(), serverId);
    x.replyStatus(found ? PmixStatus.SUCCESS : PmixStatus.ERR_NOT_FOUND);
  }
}
