package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * ALLOC ({@code PMIx_Allocation_request}, pmix-wire.md §9.3): {@code CMD 17 | ALLOC_DIRECTIVE |
 * SIZE n | INFO×n}. Answered with an {@link InfosReply}.
 *
 * @param directive the {@code pmix_alloc_directive_t}, as it came (the reader decides what it may
 *     be)
 * @param infos the request's attributes
 */
public record AllocRequest(int directive, List<Info> infos) {
  public static final int COMMAND = Commands.ALLOC_CMD;

  public AllocRequest {
    infos = List.copyOf(infos);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format)
        .packCommand(COMMAND)
        .packInteger(DataType.ALLOC_DIRECTIVE, directive)
        .packInfos(infos)
        .toByteArray();
  }

  /** The body after its command; bytes after the infos are left unread. */
  public static <X extends Exception> AllocRequest read(Unpacker in, Checks<X> checks) throws X {
    int directive = (int) in.unpackInteger(DataType.ALLOC_DIRECTIVE);
    return new AllocRequest(directive, Fields.readInfos(in, checks));
  }
}
