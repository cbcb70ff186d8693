package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.codec.Unpacker;

/** Reading the blobs of GETNB's and CONNECTNB's replies: a BYTE_OBJECT unit each. */
final class Blobs {
  private Blobs() {}

  /** The next blob's bytes, to be read in the reply's format. */
  static Unpacker open(Unpacker in) {
    ByteObject blob = (ByteObject) in.unpackOne(DataType.BYTE_OBJECT);
    return new Unpacker(in.format(), blob.toByteArray());
  }

  /** The KVAL units of a blob, one value each, to its end. */
  static List<KVal> kvals(Unpacker blob) {
    List<KVal> kvals = new ArrayList<>();
    while (blob.hasRemaining()) {
      kvals.add((KVal) blob.unpackOne(DataType.KVAL));
    }
    return kvals;
  }
}
