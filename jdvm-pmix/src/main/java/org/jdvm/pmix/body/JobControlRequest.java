package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * JOB_CONTROL ({@code PMIx_Job_control}): {@code CMD 18 | SIZE n | PROC×n | SIZE m | INFO×m}: a
 * signal, termination or cleanup registration for the targets. Answered with an {@link InfosReply}.
 *
 * @param targets the processes acted on (none: the caller's job)
 * @param directives what to do
 */
public record JobControlRequest(List<Proc> targets, List<Info> directives) {
  public static final int COMMAND = Commands.JOB_CONTROL_CMD;

  public JobControlRequest {
    targets = List.copyOf(targets);
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packCommand(COMMAND);
    Fields.writeProcs(p, targets);
    return p.packInfos(directives).toByteArray();
  }

  /** The body after its command; bytes after the directives are left unread. */
  public static <X extends Exception> JobControlRequest read(Unpacker in, Checks<X> checks)
      throws X {
    List<Proc> targets = Fields.readProcs(in, checks);
    return new JobControlRequest(targets, Fields.readInfos(in, checks));
  }
}
