package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * GETNB (docs/wireup.md §c.3): {@code CMD 4 | STRING nspace | PROC_RANK rank | SIZE n | INFO×n |
 * STRING key}, the key's unit absent for a NULL key (every key). Directives: {@code pmix.immediate}
 * (BOOL) and {@code pmix.timeout} (seconds). Answered with a {@link GetReply}.
 *
 * @param nspace the namespace asked about; {@code null} for a NULL string
 * @param rank its rank (WILDCARD: the job's data)
 * @param directives the infos, as they came
 * @param key the key, {@code null} for every key
 */
public record GetRequest(String nspace, int rank, List<Info> directives, String key) {
  public static final int COMMAND = Commands.GETNB_CMD;

  public GetRequest {
    directives = List.copyOf(directives);
  }

  /** A get of {@code key} ({@code null}: every key) of {@code proc}. */
  public GetRequest(Proc proc, String key, List<Info> directives) {
    this(proc.nspace(), proc.rank(), directives, key);
  }

  /** The process asked about; a NULL namespace is the empty one. */
  public Proc target() {
    return new Proc(nspace == null ? "" : nspace, rank);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p =
        new Packer(format)
            .packCommand(COMMAND)
            .packString(nspace)
            .packInteger(DataType.PROC_RANK, Integer.toUnsignedLong(rank))
            .packInfos(directives);
    if (key != null) {
      p.packString(key);
    }
    return p.toByteArray();
  }

  /**
   * The body after its command: the key is read when bytes remain after the directives; bytes after
   * the key are left unread.
   */
  public static <X extends Exception> GetRequest read(Unpacker in, Checks<X> checks) throws X {
    String nspace = in.unpackString();
    int rank = (int) in.unpackInteger(DataType.PROC_RANK);
    List<Info> directives = Fields.readInfos(in, checks);
    String key = in.hasRemaining() ? in.unpackString() : null;
    return new GetRequest(nspace, rank, directives, key);
  }
}
