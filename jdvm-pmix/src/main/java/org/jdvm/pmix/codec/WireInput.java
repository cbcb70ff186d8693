package org.jdvm.pmix.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jdvm.pmix.PmixStatus;

/**
 * A reader over an exact slice of bytes with the flex primitives of pmix-wire.md §2.1 and the
 * STRING body of §3.
 *
 * <p>Every read is bounded by the slice: a length or count is compared with what remains before
 * anything is allocated, and a varint is never read past its type's size. Offsets in errors are
 * relative to the start of the slice.
 */
final class WireInput {
  /** The widths, in bytes, that bound a varint ({@code PMIX_SQUASH_TYPE_SIZEOF}). */
  static final int BYTES16 = 2;

  static final int BYTES32 = 4;
  static final int BYTES64 = 8;

  private final byte[] bytes;
  private final int start;
  private final int end;
  private int pos;

  WireInput(byte[] bytes, int offset, int length) {
    if (offset < 0 || length < 0 || offset > bytes.length - length) {
      throw new IndexOutOfBoundsException("slice " + offset + "+" + length + " of " + bytes.length);
    }
    this.bytes = bytes;
    this.start = offset;
    this.end = offset + length;
    this.pos = offset;
  }

  /** The offset of the next byte, from the start of the slice. */
  int position() {
    return pos - start;
  }

  int remaining() {
    return end - pos;
  }

  WireException failure(int status, String detail) {
    return WireException.message(status, position(), detail);
  }

  /**
   * Refuses a declared length or count larger than the bytes that remain. A negative count is an
   * unsigned 64-bit value beyond {@code Long.MAX_VALUE}, so it is refused too.
   */
  void require(long count, String what) {
    if (count < 0 || count > remaining()) {
      throw failure(
          PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER,
          what
              + " of "
              + Long.toUnsignedString(count)
              + " exceeds the "
              + remaining()
              + " bytes left");
    }
  }

  int readByte() {
    if (pos >= end) {
      throw failure(PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER, "no byte left");
    }
    return bytes[pos++] & 0xFF;
  }

  byte[] readBytes(long length) {
    require(length, "a byte run");
    int n = (int) length;
    byte[] out = Arrays.copyOfRange(bytes, pos, pos + n);
    pos += n;
    return out;
  }

  /**
   * An unsigned flex varint whose value must fit {@code typeBytes} bytes. libpmix measures the
   * significant bits of the decoded value (the last byte's highest set bit plus the bits before it)
   * and refuses a value wider than the type; so does this. A ninth byte, reached only after eight
   * continued bytes, carries eight raw bits.
   */
  long readUnsigned(int typeBytes) {
    int first = pos;
    long value = 0;
    int shift = 0;
    int lastShift;
    int last;
    int count = 0;
    do {
      last = readByte();
      count++;
      lastShift = shift;
      value |= (long) (last & 0x7F) << shift;
      shift += 7;
    } while ((last & 0x80) != 0 && count < 8);
    if ((last & 0x80) != 0) {
      last = readByte();
      lastShift = 56;
      value |= (long) last << 56;
    }
    int bits = lastShift + (32 - Integer.numberOfLeadingZeros(last));
    if ((bits + 7) / 8 > typeBytes) {
      throw WireException.message(
          PmixStatus.ERR_UNPACK_FAILURE,
          first - start,
          "varint of " + (pos - first) + " bytes is wider than " + typeBytes + " bytes");
    }
    return value;
  }

  /** A zigzag varint of a signed type {@code typeBytes} wide, sign-extended to a long. */
  long readSigned(int typeBytes) {
    long zigzag = readUnsigned(typeBytes);
    long magnitude = zigzag >>> 1;
    return (zigzag & 1) != 0 ? ~magnitude : magnitude;
  }

  /** An INT32 zigzag count or length as libpmix writes them. */
  int readInt32() {
    return (int) readSigned(BYTES32);
  }

  /**
   * The longest prefix of {@code s}, whole code points, whose UTF-8 encoding fits {@code maxBytes}:
   * bytes that were not UTF-8 decode to U+FFFD, three bytes each, so a limited field (a key) is
   * trimmed again to stay within what the sender may be sent back.
   */
  private static String fitUtf8(String s, int maxBytes) {
    int bytes = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + n > maxBytes) {
        return s.substring(0, i);
      }
      bytes += n;
      i += Character.charCount(cp);
    }
    return s;
  }

  /**
   * A STRING body. A length of zero or less is libpmix's NULL; otherwise the bytes up to the first
   * NUL within the declared length are the text (libpmix forces the last byte to NUL and reads a C
   * string, so anything after an embedded NUL is dropped).
   *
   * @param maxBytes keep at most this many bytes of text (a key's 511), or -1 for all
   */
  String readString(int maxBytes) {
    int length = readInt32();
    if (length <= 0) {
      return null;
    }
    require(length, "a string length");
    int textEnd = pos + length - 1;
    int nul = pos;
    boolean ascii = true;
    while (nul < textEnd && bytes[nul] != 0) {
      ascii &= bytes[nul] >= 0;
      nul++;
    }
    int textLength = nul - pos;
    if (maxBytes >= 0 && textLength > maxBytes) {
      textLength = maxBytes;
    }
    String s = new String(bytes, pos, textLength, StandardCharsets.UTF_8);
    if (!ascii && maxBytes >= 0) {
      s = fitUtf8(s, maxBytes);
    }
    pos += length;
    return s;
  }
}
