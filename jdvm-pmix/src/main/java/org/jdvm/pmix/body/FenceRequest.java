package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * FENCENB (docs/wireup.md §c.2): {@code CMD 3 | SIZE n | PROC×n | SIZE m | INFO×m}, each list's
 * unit absent when it is empty. No procs means the caller's namespace; the directives are {@code
 * pmix.collect} (BOOL), {@code pmix.timeout} (seconds) and, from a node agent, {@code
 * jdvm.fence.for}. Answered with a {@link StatusReply} once the fence completes.
 *
 * @param procs the participants, as the caller named them
 * @param directives the infos, as they came
 */
public record FenceRequest(List<Proc> procs, List<Info> directives) {
  public static final int COMMAND = Commands.FENCENB_CMD;

  public FenceRequest {
    procs = List.copyOf(procs);
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packCommand(COMMAND);
    Fields.writeProcs(p, procs);
    return p.packInfos(directives).toByteArray();
  }

  /** The body after its command; bytes after the directives are left unread. */
  public static <X extends Exception> FenceRequest read(Unpacker in, Checks<X> checks) throws X {
    List<Proc> procs = Fields.readProcs(in, checks);
    return new FenceRequest(procs, Fields.readInfos(in, checks));
  }
}
