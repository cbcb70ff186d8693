package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * LOOKUPNB's reply (docs/wireup.md §c.4): {@code STATUS}, then on SUCCESS {@code SIZE n | PDATA×n}
 * (no PDATA unit for none); an error is the STATUS alone.
 *
 * @param status the answer
 * @param data on SUCCESS, what was found, with who published each
 */
public record LookupReply(int status, List<PData> data) {
  public LookupReply {
    data = List.copyOf(data);
  }

  /** The whole body; the data only on SUCCESS. */
  public byte[] write(WireFormat format) {
    Packer p = new Packer(format).packStatus(status);
    if (status == PmixStatus.SUCCESS) {
      p.packSize(data.size());
      if (!data.isEmpty()) {
        p.pack(DataType.PDATA, data);
      }
    }
    return p.toByteArray();
  }

  /** The whole body: after an error STATUS nothing more is read. */
  public static LookupReply read(Unpacker in) {
    int status = in.unpackStatus();
    if (status != PmixStatus.SUCCESS) {
      return new LookupReply(status, List.of());
    }
    long n = in.unpackSize();
    List<PData> out = new ArrayList<>();
    if (n > 0) {
      for (Object o : in.unpack(DataType.PDATA)) {
        out.add((PData) o);
      }
      if (out.size() != n) {
        throw WireException.message(
            PmixStatus.ERR_UNPACK_FAILURE, in.position(), "SIZE " + n + " but " + out.size());
      }
    }
    return new LookupReply(status, out);
  }
}
