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
 * IOF_PULL ({@code PMIx_IOF_pull}): {@code CMD | SIZE n | PROC×n | SIZE m | INFO×m | IOF_CHANNEL
 * channels | SIZE local id}: the output of these processes on these channels, to the caller.
 * Answered {@code STATUS | SIZE server id} ({@link #writeReply}); an error is the STATUS alone.
 *
 * @param procs whose output
 * @param directives the infos, as they came
 * @param channels the {@code pmix_iof_channel_t} bits
 * @param localId the caller's id of the registration
 */
public record IofPullRequest(List<Proc> procs, List<Info> directives, int channels, long localId) {
  public static final int COMMAND = Commands.IOF_PULL_CMD;

  public IofPullRequest {
    procs = List.copyOf(procs);
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packCommand(COMMAND);
    Fields.writeProcs(p, procs);
    return p.packInfos(directives)
        .packInteger(DataType.IOF_CHANNEL, channels)
        .packSize(localId)
        .toByteArray();
  }

  /** The body after its command; bytes after the local id are left unread. */
  public static <X extends Exception> IofPullRequest read(Unpacker in, Checks<X> checks) throws X {
    List<Proc> procs = Fields.readProcs(in, checks);
    List<Info> directives = Fields.readInfos(in, checks);
    int channels = (int) in.unpackInteger(DataType.IOF_CHANNEL);
    return new IofPullRequest(procs, directives, channels, in.unpackSize());
  }

  /** The SUCCESS reply: {@code STATUS 0 | SIZE server id}, the id a deregistration names. */
  public static byte[] writeReply(WireFormat format, int status, long serverId) {
    return new Packer(format).packStatus(status).packSize(serverId).toByteArray();
  }

  /**
   * The SUCCESS reply to a pull with {@code jdvm.iof.replay}: {@code STATUS 0 | SIZE server id |
   * SIZE n | INFO×n}, the replay's facts after the id (a libpmix peer never asks for it).
   */
  public static byte[] writeReplayReply(
      WireFormat format, int status, long serverId, List<Info> facts) {
    return new Packer(format).packStatus(status).packSize(serverId).packInfos(facts).toByteArray();
  }
}
