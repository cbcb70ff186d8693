package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;

/**
 * GETNB's reply (docs/wireup.md §c.3): {@code STATUS}, then on SUCCESS one {@code BYTE_OBJECT} unit
 * per blob, each holding a {@code PROC} unit and one {@code KVAL} unit per key, in the requester's
 * format; an error is the STATUS alone.
 *
 * @param status the answer
 * @param blobs on SUCCESS, the data found; a WILDCARD rank's blob is the job's data
 */
public record GetReply(int status, List<Blob> blobs) {
  /** One process's data: its PROC, then its KVALs. */
  public record Blob(Proc proc, List<KVal> kvals) {
    public Blob {
      Objects.requireNonNull(proc, "proc");
      kvals = List.copyOf(kvals);
    }
  }

  public GetReply {
    blobs = List.copyOf(blobs);
  }

  /** An answer without data: an error, or a SUCCESS that found nothing to carry. */
  public static GetReply status(int status) {
    return new GetReply(status, List.of());
  }

  /** The whole body; the blobs only on SUCCESS. */
  public byte[] write(WireFormat format) {
    Packer out = new Packer(format).packStatus(status);
    if (status == PmixStatus.SUCCESS) {
      for (Blob b : blobs) {
        Packer blob = new Packer(format).packProc(b.proc());
        for (KVal k : b.kvals()) {
          blob.pack(DataType.KVAL, k);
        }
        out.pack(DataType.BYTE_OBJECT, ByteObject.of(blob.toByteArray()));
      }
    }
    return out.toByteArray();
  }

  /** The whole body: after an error STATUS nothing more is read. */
  public static GetReply read(Unpacker in) {
    int status = in.unpackStatus();
    if (status != PmixStatus.SUCCESS) {
      return status(status);
    }
    List<Blob> blobs = new ArrayList<>();
    while (in.hasRemaining()) {
      Unpacker b = Blobs.open(in);
      blobs.add(new Blob(b.unpackProc(), Blobs.kvals(b)));
    }
    return new GetReply(status, blobs);
  }
}
