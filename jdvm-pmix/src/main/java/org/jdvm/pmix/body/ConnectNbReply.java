package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;

/**
 * CONNECTNB's reply (docs/wireup.md §c.5): {@code STATUS}, then on SUCCESS one {@code BYTE_OBJECT}
 * unit per other namespace of the set, each holding a {@code STRING nspace} unit and that job's
 * data as one {@code KVAL} unit per key, which the client keeps as it keeps its own job data; an
 * error, and a disconnect's answer, is the STATUS alone.
 *
 * @param status the answer
 * @param jobs on SUCCESS, the other namespaces' job data
 */
public record ConnectNbReply(int status, List<Job> jobs) {
  /** One other namespace's job data. */
  public record Job(String nspace, List<KVal> data) {
    public Job {
      Objects.requireNonNull(nspace, "nspace");
      data = List.copyOf(data);
    }
  }

  public ConnectNbReply {
    jobs = List.copyOf(jobs);
  }

  /** The whole body; the jobs only on SUCCESS. */
  public byte[] write(WireFormat format) {
    Packer out = new Packer(format).packStatus(status);
    if (status == PmixStatus.SUCCESS) {
      for (Job j : jobs) {
        Packer blob = new Packer(format).packString(j.nspace());
        for (KVal k : j.data()) {
          blob.pack(DataType.KVAL, k);
        }
        out.pack(DataType.BYTE_OBJECT, ByteObject.of(blob.toByteArray()));
      }
    }
    return out.toByteArray();
  }

  /** The whole body: after an error STATUS nothing more is read. */
  public static ConnectNbReply read(Unpacker in) {
    int status = in.unpackStatus();
    if (status != PmixStatus.SUCCESS) {
      return new ConnectNbReply(status, List.of());
    }
    List<Job> jobs = new ArrayList<>();
    while (in.hasRemaining()) {
      Unpacker b = Blobs.open(in);
      String nspace = b.unpackString();
      jobs.add(new Job(nspace, Blobs.kvals(b)));
    }
    return new ConnectNbReply(status, jobs);
  }
}
