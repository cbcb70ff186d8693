package org.jdvm.pmix.frame;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.codec.WireException;

/**
 * Reads the raw fields of the handshake (no bfrops encoding): NUL-terminated strings, big-endian
 * uint32s, single bytes and fixed-size NUL-padded namespaces. Every failure poisons the connection;
 * offsets count from the start of the slice.
 */
final class HandshakeReader {
  private final byte[] bytes;
  private final int start;
  private final int end;
  private int pos;

  HandshakeReader(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.start = offset;
    this.end = offset + length;
    this.pos = offset;
  }

  int position() {
    return pos - start;
  }

  int remaining() {
    return end - pos;
  }

  /** The absolute index of the next byte in the underlying array. */
  int absolute() {
    return pos;
  }

  void skip(int n) {
    pos += n;
  }

  WireException failure(int status, String detail) {
    return WireException.connection(status, position(), detail);
  }

  private void require(long n, String what) {
    if (n < 0 || n > remaining()) {
      throw failure(
          PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER,
          what + " needs " + n + " bytes, " + remaining() + " left");
    }
  }

  int u8() {
    require(1, "a byte");
    return bytes[pos++] & 0xFF;
  }

  int u32() {
    require(4, "a uint32");
    int v = Bytes.getIntBE(bytes, pos);
    pos += 4;
    return v;
  }

  byte[] bytes(long n, String what) {
    require(n, what);
    byte[] out = Arrays.copyOfRange(bytes, pos, pos + (int) n);
    pos += (int) n;
    return out;
  }

  /** A NUL-terminated string; the NUL must be within the slice. */
  String cstring(String what) {
    int nul = pos;
    while (nul < end && bytes[nul] != 0) {
      nul++;
    }
    if (nul == end) {
      throw failure(PmixStatus.ERR_UNPACK_READ_PAST_END_OF_BUFFER, what + " lacks its NUL");
    }
    String s = new String(bytes, pos, nul - pos, StandardCharsets.UTF_8);
    pos = nul + 1;
    return s;
  }

  /** A namespace in a fixed field of {@code width} bytes, NUL-padded; it must hold a NUL. */
  String fixedNspace(int width) {
    require(width, "an nspace field");
    int nul = pos;
    while (nul < pos + width && bytes[nul] != 0) {
      nul++;
    }
    if (nul == pos + width) {
      throw failure(PmixStatus.ERR_BAD_PARAM, "an nspace field without a NUL");
    }
    String s = new String(bytes, pos, nul - pos, StandardCharsets.UTF_8);
    pos += width;
    return s;
  }
}
