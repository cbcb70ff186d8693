package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * LOG (docs/wireup.md §c.6): {@code CMD 16 | TIME timestamp (0: none) | SIZE n | INFO×n (the data)
 * | SIZE m | INFO×m (the directives)}. Answered with a {@link StatusReply}.
 *
 * @param timestamp seconds since the epoch, 0 for none
 * @param data what to log, one info per channel
 * @param directives the infos that say how
 */
public record LogRequest(long timestamp, List<Info> data, List<Info> directives) {
  public static final int COMMAND = Commands.LOG_CMD;

  public LogRequest {
    data = List.copyOf(data);
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format)
        .packCommand(COMMAND)
        .packInteger(DataType.TIME, timestamp)
        .packInfos(data)
        .packInfos(directives)
        .toByteArray();
  }

  /** The body after its command; bytes after the directives are left unread. */
  public static <X extends Exception> LogRequest read(Unpacker in, Checks<X> checks) throws X {
    long timestamp = in.unpackInteger(DataType.TIME);
    List<Info> data = Fields.readInfos(in, checks);
    return new LogRequest(timestamp, data, Fields.readInfos(in, checks));
  }
}
