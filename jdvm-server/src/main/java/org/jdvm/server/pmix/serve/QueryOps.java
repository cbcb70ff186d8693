package org.jdvm.server.pmix.serve;

import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.server.pmix.transport.Peer;

/**
 * Reads (docs/protocol.md "How jdvm reads the standard commands"): {@code PMIx_Query_info} (QUERY),
 * a client's job data at {@code PMIx_Init} (REQ), and {@code PMIx_Get} of what the DVM holds
 * (GETNB). Each is answered from the {@link Upstream}'s read, packed in the peer's format.
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
   * GETNB: {@code STRING nspace | PROC_RANK | SIZE n | INFO | STRING key}; answered {@code STATUS |
   * BYTE_OBJECT (PROC | KVAL)}.
   */
  void get(Exchange x) throws BadRequest {
    String nspace = x.in().unpackString();
    int rank = (int) x.in().unpackInteger(DataType.PROC_RANK);
    x.infos();
    String key = x.in().unpackString();
    Proc proc = new Proc(nspace == null ? "" : nspace, rank);
    x.read(
        x.upstream().get(proc, key),
        found -> {
          if (found.isEmpty()) {
            x.replyStatus(PmixStatus.ERR_NOT_FOUND);
            return;
          }
          byte[] data = x.packer().packProc(proc).pack(DataType.KVAL, found.get()).toByteArray();
          x.reply(
              x.packer()
                  .packStatus(PmixStatus.SUCCESS)
                  .pack(DataType.BYTE_OBJECT, ByteObject.of(data))
                  .toByteArray());
        });
  }
}
