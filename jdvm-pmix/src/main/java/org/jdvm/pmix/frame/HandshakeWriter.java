package org.jdvm.pmix.frame;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.codec.WireException;

/** Writes the raw handshake fields that {@link HandshakeReader} reads. */
final class HandshakeWriter {
  private byte[] bytes = new byte[128];
  private int size;

  private void ensure(int more) {
    if (bytes.length - size < more) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }

  HandshakeWriter u8(int v) {
    ensure(1);
    bytes[size++] = (byte) v;
    return this;
  }

  HandshakeWriter u32(int v) {
    ensure(4);
    Bytes.putIntBE(bytes, size, v);
    size += 4;
    return this;
  }

  HandshakeWriter bytes(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, bytes, size, b.length);
    size += b.length;
    return this;
  }

  /** A string and its NUL; a string holding a NUL could not be read back and is refused. */
  HandshakeWriter cstring(String s) {
    if (s.indexOf('\0') >= 0) {
      throw WireException.connection(PmixStatus.ERR_BAD_PARAM, size, "NUL inside " + s);
    }
    return bytes(s.getBytes(StandardCharsets.UTF_8)).u8(0);
  }

  /** An nspace NUL-padded to a fixed field, then the rank: how the server names processes. */
  HandshakeWriter fixedProc(Proc proc, int width) {
    byte[] name = proc.nspace().getBytes(StandardCharsets.UTF_8);
    if (name.length >= width || proc.nspace().indexOf('\0') >= 0) {
      throw WireException.connection(
          PmixStatus.ERR_BAD_PARAM, size, "nspace does not fit " + width + " bytes with its NUL");
    }
    ensure(width);
    System.arraycopy(name, 0, bytes, size, name.length);
    Arrays.fill(bytes, size + name.length, size + width, (byte) 0);
    size += width;
    return u32(proc.rank());
  }

  int size() {
    return size;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
