package org.jdvm.pmix;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * An immutable run of bytes ({@code pmix_byte_object_t}). Also the representation of {@link
 * DataType#COMPRESSED_BYTE_OBJECT}, whose payload jdvm does not interpret.
 */
public final class ByteObject {
  public static final ByteObject EMPTY = new ByteObject(new byte[0]);

  private final byte[] bytes;

  private ByteObject(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A byte object holding a copy of {@code bytes}. */
  public static ByteObject of(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new ByteObject(bytes.clone());
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  public int size() {
    return bytes.length;
  }

  public byte get(int index) {
    return bytes[index];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteObject b && Arrays.equals(bytes, b.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "ByteObject[" + HexFormat.of().formatHex(bytes) + "]";
  }
}
