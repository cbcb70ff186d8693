package org.jdvm.pmix.record;

import java.util.Arrays;

/**
 * The record codec's primitive encoding: big-endian fixed-width integers, length-prefixed strings
 * in UTF-8 with each UTF-16 unit encoded on its own (so every Java string, an unpaired surrogate
 * included, comes back exact; {@code -1} for {@code null}). {@link In} works on an exact slice and
 * checks every length against the bytes remaining before it allocates (house-style.md "Netty /
 * Agrona codecs"): a malformed record is a {@link Corrupt}, never an out-of-memory or an index
 * error.
 */
public final class Bytes {
  private Bytes() {}

  /** A record that does not decode: the bytes are not what the writer wrote. */
  public static final class Corrupt extends IllegalArgumentException {
    public Corrupt(String message) {
      super(message);
    }
  }

  /** A growable output buffer. */
  public static final class Out {
    private byte[] buf;
    private int size;
    private org.jdvm.pmix.codec.Packer packer;

    /** An empty packer of {@code format} to pack a PMIx value with, reused by this output. */
    org.jdvm.pmix.codec.Packer packer(org.jdvm.pmix.WireFormat format) {
      if (packer == null || packer.format() != format) {
        packer = new org.jdvm.pmix.codec.Packer(format);
      }
      return packer.reset();
    }

    public Out(int initialCapacity) {
      buf = new byte[Math.max(16, initialCapacity)];
    }

    public int size() {
      return size;
    }

    public byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }

    /** The bytes written so far, without copying; valid until the next write. */
    public byte[] array() {
      return buf;
    }

    public void reset() {
      size = 0;
    }

    /** Forgets what was written after the first {@code size} bytes. */
    public void truncate(int size) {
      if (size < 0 || size > this.size) {
        throw new IllegalArgumentException("cannot truncate " + this.size + " bytes to " + size);
      }
      this.size = size;
    }

    private void room(int n) {
      if (size + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
      }
    }

    public Out u8(int v) {
      room(1);
      buf[size++] = (byte) v;
      return this;
    }

    public Out bool(boolean v) {
      return u8(v ? 1 : 0);
    }

    public Out i32(int v) {
      room(4);
      int at = size;
      put32(buf, at, v);
      size = at + 4;
      return this;
    }

    public Out i64(long v) {
      room(8);
      int at = size;
      byte[] b = buf;
      put32(b, at, (int) (v >>> 32));
      put32(b, at + 4, (int) v);
      size = at + 8;
      return this;
    }

    private static void put32(byte[] b, int at, int v) {
      b[at] = (byte) (v >>> 24);
      b[at + 1] = (byte) (v >>> 16);
      b[at + 2] = (byte) (v >>> 8);
      b[at + 3] = (byte) v;
    }

    /** Overwrites four bytes at {@code at} (a length or checksum written after its body). */
    public void i32At(int at, int v) {
      put32(buf, at, v);
    }

    public Out str(String s) {
      if (s == null) {
        return i32(-1);
      }
      int n = s.length();
      room(4 + 3 * n);
      // In locals: the journal writes many short strings, and a field update per byte showed.
      byte[] b = buf;
      int at = size;
      int p = at + 4;
      int i = 0;
      while (i < n) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          break;
        }
        b[p++] = (byte) c;
        i++;
      }
      for (; i < n; i++) {
        char c = s.charAt(i);
        if (c < 0x80) {
          b[p++] = (byte) c;
        } else if (c < 0x800) {
          b[p++] = (byte) (0xC0 | c >> 6);
          b[p++] = (byte) (0x80 | c & 0x3F);
        } else {
          // Each UTF-16 unit on its own (a surrogate too), so every Java string comes back exact.
          b[p++] = (byte) (0xE0 | c >> 12);
          b[p++] = (byte) (0x80 | c >> 6 & 0x3F);
          b[p++] = (byte) (0x80 | c & 0x3F);
        }
      }
      put32(b, at, p - at - 4);
      size = p;
      return this;
    }

    public Out blob(byte[] b) {
      i32(b.length);
      return raw(b, 0, b.length);
    }

    /**
     * Makes room for {@code n} bytes and counts them written; returns where they start, for the
     * caller to fill through {@link #array()} before the next write.
     */
    public int skip(int n) {
      room(n);
      int at = size;
      size += n;
      return at;
    }

    public Out raw(byte[] b, int off, int len) {
      room(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
      return this;
    }
  }

  /** A reader over an exact slice. */
  public static final class In {
    private final byte[] buf;
    private int pos;
    private final int end;

    public In(byte[] buf) {
      this(buf, 0, buf.length);
    }

    public In(byte[] buf, int off, int len) {
      this.buf = buf;
      this.pos = off;
      this.end = off + len;
    }

    public int remaining() {
      return end - pos;
    }

    public int position() {
      return pos;
    }

    private void need(int n) {
      if (n < 0 || n > end - pos) {
        throw new Corrupt("needs " + n + " bytes, " + (end - pos) + " remain");
      }
    }

    public int u8() {
      need(1);
      return buf[pos++] & 0xFF;
    }

    public boolean bool() {
      int v = u8();
      if (v > 1) {
        throw new Corrupt("not a boolean: " + v);
      }
      return v == 1;
    }

    public int i32() {
      need(4);
      int v =
          (buf[pos] & 0xFF) << 24
              | (buf[pos + 1] & 0xFF) << 16
              | (buf[pos + 2] & 0xFF) << 8
              | buf[pos + 3] & 0xFF;
      pos += 4;
      return v;
    }

    public long i64() {
      long hi = i32();
      return hi << 32 | i32() & 0xFFFF_FFFFL;
    }

    /** A count of items each at least {@code minBytes} long: checked against what remains. */
    public int count(int minBytes) {
      int n = i32();
      if (n < 0 || (long) n * Math.max(1, minBytes) > end - pos) {
        throw new Corrupt("a count of " + n + " does not fit in " + (end - pos) + " bytes");
      }
      return n;
    }

    /** A declared length of the bytes that follow: checked against what remains. */
    private void length(int n) {
      if (n < 0 || n > end - pos) {
        throw new Corrupt("a count of " + n + " bytes does not fit in " + (end - pos));
      }
    }

    public String str() {
      int n = i32();
      if (n == -1) {
        return null;
      }
      length(n);
      StringBuilder s = new StringBuilder(n);
      int end = pos + n;
      while (pos < end) {
        int b = buf[pos++] & 0xFF;
        if (b < 0x80) {
          s.append((char) b);
        } else if ((b & 0xE0) == 0xC0 && pos < end) {
          s.append((char) ((b & 0x1F) << 6 | cont(end)));
        } else if ((b & 0xF0) == 0xE0 && pos + 1 < end) {
          int hi = cont(end);
          s.append((char) ((b & 0x0F) << 12 | hi << 6 | cont(end)));
        } else {
          throw new Corrupt("not a string this codec writes: byte " + b);
        }
      }
      return s.toString();
    }

    private int cont(int end) {
      int b = buf[pos++] & 0xFF;
      if ((b & 0xC0) != 0x80 || pos > end) {
        throw new Corrupt("a broken character in a string");
      }
      return b & 0x3F;
    }

    public byte[] blob() {
      int n = i32();
      length(n);
      byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return b;
    }

    public void expectEnd() {
      if (pos != end) {
        throw new Corrupt((end - pos) + " bytes left over");
      }
    }
  }
}
