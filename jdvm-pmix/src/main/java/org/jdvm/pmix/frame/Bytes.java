package org.jdvm.pmix.frame;

/** Fixed-width integers in either byte order: the framing layer's only primitives. */
final class Bytes {
  private Bytes() {}

  static int getIntBE(byte[] b, int at) {
    return (b[at] & 0xFF) << 24
        | (b[at + 1] & 0xFF) << 16
        | (b[at + 2] & 0xFF) << 8
        | (b[at + 3] & 0xFF);
  }

  static int getIntLE(byte[] b, int at) {
    return (b[at + 3] & 0xFF) << 24
        | (b[at + 2] & 0xFF) << 16
        | (b[at + 1] & 0xFF) << 8
        | (b[at] & 0xFF);
  }

  static void putIntBE(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  static void putIntLE(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }
}
