package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * REQ's reply (docs/protocol.md "Job data"): {@code STRING nspace}, then the job data as KVAL units
 * to the end; a tool's is its namespace alone. The request is the command alone ({@link #COMMAND}).
 *
 * @param nspace the requester's namespace
 * @param data the job level, every node's and rank's arrays and the requester's own node's keys
 */
public record JobDataReply(String nspace, List<KVal> data) {
  /** REQ: the request is {@code CMD 0} and nothing else. */
  public static final int COMMAND = Commands.REQ_CMD;

  public JobDataReply {
    data = List.copyOf(data);
  }

  /** The whole body: one KVAL unit per datum. */
  public byte[] write(WireFormat format) {
    Packer out = new Packer(format).packString(nspace);
    for (KVal k : data) {
      out.pack(DataType.KVAL, k);
    }
    return out.toByteArray();
  }

  /** The whole body; a KVAL unit may hold several. */
  public static JobDataReply read(Unpacker in) {
    String nspace = in.unpackString();
    List<KVal> data = new ArrayList<>();
    while (in.hasRemaining()) {
      for (Object o : in.unpack(DataType.KVAL)) {
        data.add((KVal) o);
      }
    }
    return new JobDataReply(nspace, data);
  }

  /**
   * The first datum {@code wanted} takes, read no further than it; {@code null} when the body has
   * none. A large reply is read only as far as what is looked for.
   */
  public static KVal first(Unpacker in, Predicate<KVal> wanted) {
    in.unpackString();
    while (in.hasRemaining()) {
      for (Object o : in.unpack(DataType.KVAL)) {
        KVal k = (KVal) o;
        if (wanted.test(k)) {
          return k;
        }
      }
    }
    return null;
  }
}
