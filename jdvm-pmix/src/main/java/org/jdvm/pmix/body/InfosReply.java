package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;

/**
 * The reply of ALLOC, QUERY, SESSION_CTRL and JOB_CONTROL: {@code STATUS | SIZE n | INFO×n}, the
 * infos only on SUCCESS ({@code STATUS | SIZE 0} otherwise: libpmix's callers of these unpack the
 * SIZE before they look at the status).
 *
 * @param status the answer
 * @param infos on SUCCESS, the results
 */
public record InfosReply(int status, List<Info> infos) {
  public InfosReply {
    infos = List.copyOf(infos);
  }

  /** An answer without results: an error, or a SUCCESS with nothing to report. */
  public static InfosReply status(int status) {
    return new InfosReply(status, List.of());
  }

  /** The whole body; the infos only on SUCCESS. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packStatus(status);
    return p.packInfos(status == PmixStatus.SUCCESS ? infos : List.of()).toByteArray();
  }

  /** The whole body: after an error STATUS nothing more is read. */
  public static InfosReply read(Unpacker in) {
    int status = in.unpackStatus();
    return status == PmixStatus.SUCCESS
        ? new InfosReply(status, in.unpackInfos())
        : InfosReply.status(status);
  }
}
