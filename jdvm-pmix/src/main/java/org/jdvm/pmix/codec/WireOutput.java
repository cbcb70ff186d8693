package org.jdvm.pmix.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jdvm.pmix.PmixStatus;

/**
 * A growable byte array with the flex primitives of pmix-wire.md §2.1 and the STRING body of §3.
 *
 * <p>Writes never allocate per byte: the array doubles when full, and ASCII strings (keys,
 * namespaces, host names) are copied char by char without an intermediate {@code byte[]}.
 */
final class WireOutput {
  private byte[] bytes;
  private int size;

  WireOutput(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  int size() {
    return size;
  }

  /** Drops everything written after {@code mark}: how a failed pack call is undone. */
  void truncate(int mark) {
    size = mark;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  void copyTo(byte[] dst, int offset) {
    System.arraycopy(bytes, 0, dst, offset, size);
  }

  private void ensure(int more) {
    if (bytes.length - size < more) {
      long wanted = Math.max((long) bytes.length * 2, (long) size + more);
      if (wanted > Integer.MAX_VALUE - 8) {
        throw WireException.message(PmixStatus.ERR_OUT_OF_RESOURCE, size, "buffer too large");
      }
      bytes = Arrays.copyOf(bytes, (int) wanted);
    }
  }

  void writeByte(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  void writeBytes(byte[] src, int offset, int length) {
    ensure(length);
    System.arraycopy(src, offset, bytes, size, length);
    size += length;
  }

  /**
   * An unsigned flex varint: seven bits per byte, least significant first, 0x80 meaning "more".
   * After eight such bytes (56 bits) a ninth byte carries the last eight bits raw, so the longest
   * encoding is nine bytes and {@code 2^64-1} is nine 0xFF.
   */
  void writeUnsigned(long value) {
    ensure(9);
    long v = value;
    for (int i = 0; i < 8; i++) {
      if ((v & ~0x7FL) == 0) {
        bytes[size++] = (byte) v;
        return;
      }
      bytes[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[size++] = (byte) v;
  }

  /**
   * A signed value as libpmix writes it: sign-extended to 64 bits, complemented if negative,
   * shifted left with the sign in bit 0 (zigzag), then as {@link #writeUnsigned}.
   */
  void writeSigned(long value) {
    writeUnsigned(value < 0 ? (~value << 1) | 1 : value << 1);
  }

  /**
   * The STRING body: the length including the terminating NUL as a zigzag INT32, the UTF-8 bytes,
   * then the NUL. A {@code null} string is the single byte {@code 00} (length 0, no bytes).
   *
   * @param maxBytes the longest encoding the receiver keeps (a key's 511), or -1 for no limit
   * @throws WireException ({@code PMIX_ERR_BAD_PARAM}) if the string holds a NUL, which C could not
   *     represent, or is longer than {@code maxBytes}
   */
  void writeString(String s, int maxBytes) {
    if (s == null) {
      writeByte(0);
      return;
    }
    int length = s.length();
    int ascii = asciiPrefix(s);
    if (ascii == length) {
      checkLength(length, maxBytes);
      writeSigned(length + 1L);
      ensure(length + 1);
      for (int i = 0; i < length; i++) {
        bytes[size++] = (byte) s.charAt(i);
      }
      bytes[size++] = 0;
      return;
    }
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    if (s.indexOf('\0', ascii) >= 0) {
      throw WireException.message(PmixStatus.ERR_BAD_PARAM, size, "string contains NUL");
    }
    checkLength(utf8.length, maxBytes);
    writeSigned(utf8.length + 1L);
    writeBytes(utf8, 0, utf8.length);
    writeByte(0);
  }

  private void checkLength(int length, int maxBytes) {
    if (maxBytes >= 0 && length > maxBytes) {
      throw WireException.message(
          PmixStatus.ERR_BAD_PARAM, size, length + " bytes exceed the limit of " + maxBytes);
    }
  }

  /** The length of the leading run of non-NUL ASCII characters; a NUL ends the run. */
  private int asciiPrefix(String s) {
    int length = s.length();
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if (c == 0) {
        throw WireException.message(PmixStatus.ERR_BAD_PARAM, size, "string contains NUL");
      }
      if (c >= 0x80) {
        return i;
      }
    }
    return length;
  }
}
