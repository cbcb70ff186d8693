package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import org.jdvm.endpoint.wireup.Connects;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.body.ConnectNbReply;
import org.jdvm.pmix.body.ConnectNbRequest;
import org.jdvm.pmix.frame.Commands;

/**
 * Connect and disconnect (docs/wireup.md §c.5; docs/protocol.md "How jdvm reads the standard
 * commands"): {@code PMIx_Connect} (CONNECTNB) and {@code PMIx_Disconnect} (DISCONNECTNB) over
 * processes of any namespaces, what {@code MPI_Comm_spawn} and {@code MPI_Comm_connect/accept} use.
 * A WILDCARD rank is every rank of its job; the collective is counted by {@link Connects}. A
 * connect's SUCCESS carries, per other namespace, one {@code BYTE_OBJECT} holding {@code STRING
 * nspace} and that job's data as KVALs, which the client stores as it stores its own job data.
 */
public final class ConnectOps {
  private final Connects connects;
  private final Timeouts timeouts;

  public ConnectOps(Connects connects, ScheduledExecutorService timer) {
    this.connects = connects;
    this.timeouts = new Timeouts(timer);
  }

  /** CONNECTNB ({@link ConnectNbRequest}); answered with a {@link ConnectNbReply}. */
  void connect(Exchange x) throws BadRequest {
    collective(x, Connects.Kind.CONNECT);
  }

  /** DISCONNECTNB: as CONNECTNB; answered {@code STATUS}. */
  void disconnect(Exchange x) throws BadRequest {
    collective(x, Connects.Kind.DISCONNECT);
  }

  private void collective(Exchange x, Connects.Kind kind) throws BadRequest {
    int command =
        kind == Connects.Kind.CONNECT ? Commands.CONNECTNB_CMD : Commands.DISCONNECTNB_CMD;
    ConnectNbRequest request = ConnectNbRequest.read(x.in(), command, x.checks());
    List<Proc> procs = request.procs();
    int seconds = 0;
    for (Info i : request.directives()) {
      if (i.key().equals(PmixKeys.TIMEOUT)) {
        seconds = Values.signed(i);
        if (seconds < 0) {
          throw BadRequest.param(i.key() + " is " + seconds);
        }
      } else if (i.isRequired()) {
        throw BadRequest.notSupported(i.key());
      }
    }
    if (procs.isEmpty()) {
      throw BadRequest.param("no processes to " + kind.name().toLowerCase(java.util.Locale.ROOT));
    }
    Set<String> nspaces = new LinkedHashSet<>();
    for (Proc p : procs) {
      nspaces.add(p.nspace());
      if (p.rank() != Proc.RANK_WILDCARD && !p.isValidRank()) {
        throw BadRequest.param("rank " + p + " names no process");
      }
    }
    int timeout = seconds;
    x.read(x.upstream().ranks(nspaces), known -> enter(x, kind, procs, known, timeout));
  }

  private void enter(
      Exchange x,
      Connects.Kind kind,
      List<Proc> procs,
      Map<String, Upstream.Ranks> known,
      int timeoutSeconds) {
    List<Proc> members = new ArrayList<>();
    List<Proc> ended = new ArrayList<>();
    for (Upstream.Ranks r : known.values()) {
      for (int rank : r.ended()) {
        ended.add(new Proc(r.nspace(), rank));
      }
    }
    for (Proc p : procs) {
      Upstream.Ranks r = known.get(p.nspace());
      if (r == null) {
        x.fail(PmixStatus.ERR_NOT_FOUND);
        return;
      }
      if (p.rank() == Proc.RANK_WILDCARD) {
        for (int rank = 0; rank < r.size(); rank++) {
          members.add(new Proc(p.nspace(), rank));
        }
      } else if (Integer.compareUnsigned(p.rank(), r.size()) < 0) {
        members.add(p);
      } else {
        x.fail(PmixStatus.ERR_BAD_PARAM);
        return;
      }
    }
    Timeouts.Slot slot = new Timeouts.Slot();
    Connects.Entering e =
        connects.enter(
            kind,
            x.self(),
            members,
            ended,
            x.connection(),
            (status, completion) -> {
              slot.answered();
              answer(x, kind, status, completion);
            });
    switch (e) {
      case Connects.Entering.Refused r -> x.fail(r.why().status());
      case Connects.Entering.Entered entered -> {
        timeouts.arm(slot, timeoutSeconds, () -> connects.expire(entered.id()));
        loseWhatEndedMeanwhile(x, known.keySet());
      }
    }
  }

  /**
   * A member that ended after {@code known} was read and before the collective was entered was told
   * to no open collective, and would be waited for in vain: the jobs are read again now that the
   * collective is open (reads and endings reach the endpoint in the controller's order, so every
   * ending is seen by this read or by the collective), and what ended is lost.
   */
  private void loseWhatEndedMeanwhile(Exchange x, Set<String> nspaces) {
    x.upstream()
        .ranks(nspaces)
        .thenAccept(
            now -> {
              for (String nspace : nspaces) {
                Upstream.Ranks r = now.get(nspace);
                if (r == null) {
                  connects.jobEnded(nspace);
                } else if (!r.ended().isEmpty()) {
                  connects.procsEnded(nspace, r.ended());
                }
              }
            });
  }

  private static void answer(
      Exchange x, Connects.Kind kind, int status, Connects.Completion completion) {
    if (kind == Connects.Kind.DISCONNECT
        || status != PmixStatus.SUCCESS
        || completion.namespaces().size() == 1) {
      x.replyStatus(status);
      return;
    }
    CompletableFuture<Map<String, List<KVal>>> data =
        completion.once(() -> x.upstream().namespaceData(completion.namespaces()));
    x.read(
        data,
        byNamespace -> {
          List<ConnectNbReply.Job> jobs = new ArrayList<>(byNamespace.size());
          String own = x.self().nspace();
          for (Map.Entry<String, List<KVal>> e : byNamespace.entrySet()) {
            if (!e.getKey().equals(own)) {
              jobs.add(new ConnectNbReply.Job(e.getKey(), e.getValue()));
            }
          }
          x.reply(new ConnectNbReply(PmixStatus.SUCCESS, jobs).write(x.format()));
        });
  }
}
