package org.jdvm.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.ConnectNbReply;
import org.jdvm.pmix.body.GetReply;
import org.jdvm.pmix.body.LookupReply;
import org.jdvm.pmix.codec.Unpacker;

/**
 * What the client makes of the wire-up replies (docs/wireup.md §c), read by their codecs ({@code
 * org.jdvm.pmix.body}, which also lay out the requests the client sends): an error STATUS is thrown
 * as a {@link PmixException}, blobs are gathered by their owner. Pure functions of their arguments.
 */
final class WireUpReplies {
  private WireUpReplies() {}

  /**
   * A GETNB or CONNECT reply's blobs by owner: a GETNB blob's {@code PROC} ({@link GetReply}), or a
   * CONNECT blob's namespace as its WILDCARD rank ({@link ConnectNbReply}); blobs of one owner are
   * joined in order. An error STATUS throws it.
   */
  static Map<Proc, List<KVal>> blobs(Unpacker in, boolean byNamespace) throws PmixException {
    Map<Proc, List<KVal>> out = new LinkedHashMap<>();
    if (byNamespace) {
      ConnectNbReply reply = ConnectNbReply.read(in);
      refused(reply.status(), "connect refused");
      for (ConnectNbReply.Job j : reply.jobs()) {
        out.computeIfAbsent(Proc.wildcard(j.nspace()), k -> new ArrayList<>()).addAll(j.data());
      }
    } else {
      GetReply reply = GetReply.read(in);
      refused(reply.status(), "get refused");
      for (GetReply.Blob b : reply.blobs()) {
        out.computeIfAbsent(b.proc(), k -> new ArrayList<>()).addAll(b.kvals());
      }
    }
    return out;
  }

  /** A lookup reply's data ({@link LookupReply}); an error STATUS throws it. */
  static List<PData> lookupReply(Unpacker in) throws PmixException {
    LookupReply reply = LookupReply.read(in);
    refused(reply.status(), "lookup refused");
    return reply.data();
  }

  private static void refused(int status, String what) throws PmixException {
    if (status != PmixStatus.SUCCESS) {
      throw new PmixException(status, what);
    }
  }

  /** The value under {@code key} among {@code kvals}, or {@code null}. */
  static Value find(List<KVal> kvals, String key) {
    if (kvals == null) {
      return null;
    }
    Value found = null;
    for (KVal k : kvals) {
      if (key.equals(k.key())) {
        found = k.value(); // a later blob replaces an earlier one
      }
    }
    return found;
  }
}
