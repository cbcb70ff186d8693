package org.jdvm.pmix.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.PmixStatus;

/**
 * Inflates the deprecated COMPRESSED_STRING (type 42) that a 4.2.2 client's {@code PMIx_Put} sends
 * for large strings (pmix-wire.md §3): a byte object holding the string's length without its NUL as
 * a host-order (little-endian) uint32, then a zlib stream.
 *
 * <p>The output is bounded: the claimed length may not exceed {@link #MAX_INFLATED_BYTES}, the
 * buffer grows only as output really arrives, and output beyond the claim, or short of it, is
 * refused. So a small malicious blob cannot make the decoder allocate much.
 */
final class Compression {
  /** The longest string jdvm inflates: the default PMIx message limit, 32 MiB. */
  static final int MAX_INFLATED_BYTES = 32 << 20;

  private Compression() {}

  static String inflateString(ByteObject blob, WireInput in) {
    byte[] bytes = blob.toByteArray();
    if (bytes.length < 4) {
      throw in.failure(PmixStatus.ERR_UNPACK_FAILURE, "compressed string without its length");
    }
    long claim =
        (bytes[0] & 0xFFL)
            | (bytes[1] & 0xFFL) << 8
            | (bytes[2] & 0xFFL) << 16
            | (bytes[3] & 0xFFL) << 24;
    if (claim > MAX_INFLATED_BYTES) {
      throw in.failure(PmixStatus.ERR_UNPACK_FAILURE, "compressed string claims " + claim);
    }
    byte[] text = inflate(bytes, (int) claim, in);
    int nul = 0;
    while (nul < text.length && text[nul] != 0) {
      nul++;
    }
    return new String(text, 0, nul, StandardCharsets.UTF_8);
  }

  private static byte[] inflate(byte[] bytes, int claim, WireInput in) {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(bytes, 4, bytes.length - 4);
      // One byte beyond the claim, so that output past it is seen rather than cut off.
      int limit = claim + 1;
      byte[] out = new byte[Math.min(limit, Math.max(64, 4 * bytes.length))];
      int produced = 0;
      int stalls = 0;
      while (true) {
        int n = inflater.inflate(out, produced, out.length - produced);
        produced += n;
        if (inflater.finished()) {
          break;
        }
        if (produced == out.length) {
          if (out.length == limit) {
            throw in.failure(PmixStatus.ERR_UNPACK_FAILURE, "inflates past its claim " + claim);
          }
          out = Arrays.copyOf(out, (int) Math.min(limit, 2L * out.length));
        } else if (n == 0 && ++stalls > 2) {
          // room for output but none comes: the input ran out (or wants a preset dictionary)
          throw in.failure(PmixStatus.ERR_UNPACK_FAILURE, "truncated compressed string");
        }
      }
      if (produced != claim) {
        throw in.failure(
            PmixStatus.ERR_UNPACK_FAILURE, "inflated " + produced + " bytes, claimed " + claim);
      }
      return Arrays.copyOf(out, produced);
    } catch (DataFormatException e) {
      throw in.failure(PmixStatus.ERR_UNPACK_FAILURE, "corrupt compressed string");
    } finally {
      inflater.end();
    }
  }
}
