package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.wireup.Blob;
import org.jdvm.pmix.Info;
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
  /** QUERY ({@link QueryRequest}); answered {@code STATUS | SIZE n | INFO}. */
  void query(Exchange x) {
    List<Query> queries = QueryRequest.read(x.in()).queries();
    x.read(x.upstream().query(queries), x::replyInfos);
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
