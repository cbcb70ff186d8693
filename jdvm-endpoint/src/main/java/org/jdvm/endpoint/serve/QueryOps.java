package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.wireup.Blob;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.body.GetReply;
import org.jdvm.pmix.body.GetRequest;
import org.jdvm.pmix.body.JobDataReply;
import org.jdvm.pmix.body.QueryRequest;

/**
 * Reads (docs/protocol.md "How jdvm reads the standard commands"): {@code PMIx_Query_info} (QUERY),
 * a client's job data at {@code PMIx_Init} (REQ), and {@code PMIx_Get} of job data and of what
 * peers committed (GETNB). Each is answered from the {@link Upstream}'s read, packed in the peer's
 * format.
 */
public final class QueryOps {
  /**
   * QUERY ({@link QueryRequest}); answered {@code STATUS | SIZE n | INFO}. {@code jdvm.qry.explain}
   * asks alone: its qualifiers are read as the querying process's would-be spawn ({@link
   * #explain}).
   */
  void query(Exchange x) throws BadRequest {
    List<Query> queries = QueryRequest.read(x.in()).queries();
    for (Query q : queries) {
      if (q.keys().contains(JdvmProtocol.QUERY_EXPLAIN)) {
        if (queries.size() != 1 || q.keys().size() != 1) {
          throw BadRequest.param(JdvmProtocol.QUERY_EXPLAIN + " is asked alone");
        }
        explain(x, q.qualifiers());
        return;
      }
    }
    x.read(x.upstream().query(queries), x::replyInfos);
  }

  /**
   * {@code jdvm explain}: a job ({@link JdvmProtocol#EXPLAIN_JOB}), or a would-be spawn read
   * exactly as {@code PMIx_Spawn} reads one ({@link JobOps#spawn}) from the other qualifiers, with
   * one app per count in {@link JdvmProtocol#EXPLAIN_PROCS} (default: one app of one process), made
   * by the querying process. Nothing is spawned.
   */
  private static void explain(Exchange x, List<Info> qualifiers) throws BadRequest {
    String job = null;
    String node = null;
    String alloc = null;
    String procs = "1";
    List<Info> jobInfos = new ArrayList<>();
    for (Info i : qualifiers) {
      switch (i.key()) {
        case JdvmProtocol.EXPLAIN_JOB -> job = Values.string(i);
        case JdvmProtocol.EXPLAIN_NODE -> node = Values.string(i);
        case JdvmProtocol.EXPLAIN_ALLOC -> alloc = Values.string(i);
        case JdvmProtocol.EXPLAIN_PROCS -> procs = Values.string(i);
        default -> jobInfos.add(i);
      }
    }
    Request.Spawn wouldBe = null;
    if (job == null) {
      List<App> apps = new ArrayList<>();
      for (String n : procs.split(",", -1)) {
        apps.add(new App("explain", List.of("explain"), List.of(), null, count(n), List.of()));
      }
      wouldBe =
          JobOps.spawn(new RequestId(0), x.self(), x.peer().role().isToolClass(), jobInfos, apps)
              .request();
    }
    x.read(x.upstream().explain(wouldBe, job, node, alloc), x::replyInfos);
  }

  private static int count(String n) throws BadRequest {
    try {
      int c = Integer.parseInt(n.trim());
      if (c >= 1) {
        return c;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw BadRequest.param(JdvmProtocol.EXPLAIN_PROCS + " takes counts of at least 1, not " + n);
  }

  /** REQ_CMD ({@link JobDataReply}): a tool's namespace; a launched process's and its job data. */
  void jobData(Exchange x) {
    Peer p = x.peer();
    if (p.role() != Peer.Role.APPLICATION) {
      x.reply(new JobDataReply(p.proc().nspace(), List.of()).write(x.format()));
      return;
    }
    x.read(
        x.upstream().jobData(p.proc()),
        kvals ->
            x.reply(
                new JobDataReply(p.proc().nspace(), kvals.orElse(List.of())).write(x.format())));
  }

  /**
   * GETNB ({@link GetRequest}, docs/wireup.md §c.3): directives {@code pmix.immediate} BOOL and
   * {@code pmix.timeout} seconds. Answered with a {@link GetReply}: on SUCCESS one blob per process
   * found; a key absent from the blobs is NOT_FOUND to the client.
   */
  void get(Exchange x) throws BadRequest {
    GetRequest request = GetRequest.read(x.in(), x.checks());
    boolean immediate = false;
    long timeoutMs = 0;
    for (Info i : request.directives()) {
      switch (i.key()) {
        case PmixKeys.IMMEDIATE -> immediate = Values.bool(i);
        case PmixKeys.TIMEOUT -> timeoutMs = Values.count(i) * 1000L;
        default -> {}
      }
    }
    x.await(
        x.upstream().get(x.self(), request.target(), request.key(), immediate, timeoutMs),
        got -> {
          if (got.status() != PmixStatus.SUCCESS) {
            x.replyStatus(got.status());
            return;
          }
          List<GetReply.Blob> blobs = new ArrayList<>(got.blobs().size());
          for (Blob b : got.blobs()) {
            blobs.add(new GetReply.Blob(b.proc(), b.kvals()));
          }
          x.reply(new GetReply(PmixStatus.SUCCESS, blobs).write(x.format()));
        });
  }
}
