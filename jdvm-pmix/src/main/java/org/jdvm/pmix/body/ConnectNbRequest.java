package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * CONNECTNB and DISCONNECTNB, one layout (docs/wireup.md §c.5): {@code CMD 10|11 | SIZE n | PROC×n
 * | SIZE m | INFO×m}. A connect is answered with a {@link ConnectNbReply}, a disconnect with a
 * {@link StatusReply}. (Named for its command: {@code frame.ConnectRequest} is the handshake.)
 *
 * @param command {@link Commands#CONNECTNB_CMD} or {@link Commands#DISCONNECTNB_CMD}
 * @param procs the set, as the caller named it (a WILDCARD rank is every rank of its job)
 * @param directives the infos, as they came
 */
public record ConnectNbRequest(int command, List<Proc> procs, List<Info> directives) {
  public ConnectNbRequest {
    if (command != Commands.CONNECTNB_CMD && command != Commands.DISCONNECTNB_CMD) {
      throw new IllegalArgumentException("not a CONNECTNB or DISCONNECTNB: " + command);
    }
    procs = List.copyOf(procs);
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packCommand(command);
    Fields.writeProcs(p, procs);
    return p.packInfos(directives).toByteArray();
  }

  /** The body after its command, which the caller read; bytes after the infos are left unread. */
  public static <X extends Exception> ConnectNbRequest read(
      Unpacker in, int command, Checks<X> checks) throws X {
    List<Proc> procs = Fields.readProcs(in, checks);
    return new ConnectNbRequest(command, procs, Fields.readInfos(in, checks));
  }
}
