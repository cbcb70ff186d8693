package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * ABORT (docs/wireup.md §c.8, {@code PMIx_Abort}, {@code MPI_Abort}): {@code CMD 1 | STATUS |
 * STRING message | SIZE n | PROC×n}, no procs meaning the caller's own job. Answered with a {@link
 * StatusReply}, which Open MPI does not wait for.
 *
 * @param status the abort status, the jobs' exit code
 * @param message the caller's message; {@code null} for none
 * @param procs the processes whose jobs end
 */
public record AbortRequest(int status, String message, List<Proc> procs) {
  public static final int COMMAND = Commands.ABORT_CMD;

  public AbortRequest {
    procs = List.copyOf(procs);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packCommand(COMMAND).packStatus(status).packString(message);
    Fields.writeProcs(p, procs);
    return p.toByteArray();
  }

  /** The body after its command; bytes after the procs are left unread. */
  public static <X extends Exception> AbortRequest read(Unpacker in, Checks<X> checks) throws X {
    int status = in.unpackStatus();
    String message = in.unpackString();
    return new AbortRequest(status, message, Fields.readProcs(in, checks));
  }
}
