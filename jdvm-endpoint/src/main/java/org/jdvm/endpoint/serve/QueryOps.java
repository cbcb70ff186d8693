package org.jdvm.endpoint.serve;

import java.util.List;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.endpoint.wireup.Blob;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.codec.Packer;

/**
 * Reads (docs/protocol.md "How jdvm reads the standard commands"): {@code PMIx_Query_info} (QUERY),
 * a client's job data at {@code PMIx_Init} (REQ), and {@code PMIx_Get} of job data and of what
 * peers committed (GETNB). Each is answered from the {@link Upstream}'s read, packed in the peer's
 * format.
 */
public final class QueryOps {
  /** QUERY: {@code SIZE n | QUERY…}; answered {@code STATUS | SIZE n | INFO}. */
  void query(Exchange x) {
    List<Query> queries = x.in().unpackQueries();
    x.read(x.upstream().query(queries), x::replyInfos);
  }

  /** REQ_CMD: a tool's namespace; a launched process's namespace and job data. */
  void jobData(Exchange x) {
    Peer p = x.peer();
    if (p.role() != Peer.Role.APPLICATION) {
      x.reply(x.packer().packString(p.proc().nspace()).toByteArray());
      return;
    }
    x.read(
        x.upstream().jobData(p.proc()),
        kvals -> {
          Packer out = x.packer().packString(p.proc().nspace());
          for (KVal k : kvals.orElse(List.of())) {
            out.pack(DataType.KVAL, k);
          }
          x.reply(out.toByteArray());
        });
  }

  /**
   * GETNB (docs/wireup.md §c.3): {@code STRING nspace | PROC_RANK | SIZE n | INFO… | STRING key}
   * (the key absent for a NULL key); directives {@code pmix.immediate} BOOL and {@code
   * pmix.timeout} seconds. Answered {@code STATUS}, then on SUCCESS one {@code BYTE_OBJECT} per
   * blob, each {@code PROC | KVAL…}; a key absent from the blobs is NOT_FOUND to the client.
   */
  void get(Exchange x) throws BadRequest {
    String nspace = x.in().unpackString();
    int rank = (int) x.in().unpackInteger(DataType.PROC_RANK);
    List<Info> infos = x.infos();
    String key = x.in().hasRemaining() ? x.in().unpackString() : null;
    boolean immediate = false;
    long timeoutMs = 0;
    for (Info i : infos) {
      switch (i.key()) {
        case PmixKeys.IMMEDIATE -> immediate = Values.bool(i);
        case PmixKeys.TIMEOUT -> timeoutMs = Values.count(i) * 1000L;
        default -> {}
      }
    }
    Proc target = new Proc(nspace == null ? "" : nspace, rank);
    x.await(
        x.upstream().get(x.self(), target, key, immediate, timeoutMs),
        got -> {
          if (got.status() != PmixStatus.SUCCESS) {
            x.replyStatus(got.status());
            return;
          }
          Packer out = x.packer().packStatus(PmixStatus.SUCCESS);
          for (Blob b : got.blobs()) {
            Packer blob = x.packer().packProc(b.proc());
            for (KVal k : b.kvals()) {
              blob.pack(DataType.KVAL, k);
            }
            out.pack(DataType.BYTE_OBJECT, ByteObject.of(blob.toByteArray()));
          }
          x.reply(out.toByteArray());
        });
  }
}
