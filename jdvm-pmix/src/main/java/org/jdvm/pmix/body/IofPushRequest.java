package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * IOF_PUSH (docs/wireup.md §c.7): {@code CMD 23 | SIZE n | PROC×n | SIZE m | INFO×m | BYTE_OBJECT
 * data}: a chunk of the pusher's stdin for the targets' pipes; an empty chunk is the end of file,
 * and a missing one forwards nothing. Answered with a {@link StatusReply}.
 *
 * <p>Read in two steps, {@link #readHead} then {@link #readData}, so that a server may refuse a
 * push by its head without copying its chunk.
 *
 * @param targets whose stdin the chunk is for (rank WILDCARD: every process of the job with a pipe)
 * @param directives the infos, as they came
 * @param data the chunk; {@code null} for none (compared by identity, as arrays in records are)
 */
public record IofPushRequest(List<Proc> targets, List<Info> directives, byte[] data) {
  public static final int COMMAND = Commands.IOF_PUSH_CMD;

  /** What comes before the chunk. */
  public record Head(List<Proc> targets, List<Info> directives) {}

  public IofPushRequest {
    targets = List.copyOf(targets);
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first; no chunk unit when {@code data} is {@code null}. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format, (data == null ? 0 : data.length) + 96).packCommand(COMMAND);
    Fields.writeProcs(p, targets);
    p.packInfos(directives);
    if (data != null) {
      p.pack(DataType.BYTE_OBJECT, ByteObject.of(data));
    }
    return p.toByteArray();
  }

  /** The targets and directives, after the command. */
  public static <X extends Exception> Head readHead(Unpacker in, Checks<X> checks) throws X {
    List<Proc> targets = Fields.readProcs(in, checks);
    return new Head(targets, Fields.readInfos(in, checks));
  }

  /** The chunk after the head; {@code null} when the body ends before it. */
  public static byte[] readData(Unpacker in) {
    return in.hasRemaining()
        ? ((ByteObject) in.unpackOne(DataType.BYTE_OBJECT)).toByteArray()
        : null;
  }

  /** The whole body after its command. */
  public static <X extends Exception> IofPushRequest read(Unpacker in, Checks<X> checks) throws X {
    Head h = readHead(in, checks);
    return new IofPushRequest(h.targets(), h.directives(), readData(in));
  }
}
