package org.jdvm.host;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Newline-ended lines from a channel, each at most a fixed number of bytes, newline included, and
 * fixed-size reads after them: what a line protocol's server reads (simple PMI at the controller
 * and at a node agent's relay, docs/protocol.md "Simple PMI"). A line past the bound is {@link
 * TooLong}: its end cannot be found, so the connection must end. Not thread-safe: one reader per
 * channel.
 */
public final class LineReader {
  /** A line longer than the bound. */
  public static final class TooLong extends IOException {
    TooLong() {
      super("line too long", null);
    }
  }

  private final ReadableByteChannel c;
  private final ByteBuffer buf;
  private final int maxLine;

  /** Lines of {@code c} of at most {@code maxLine} bytes, newline included. */
  public LineReader(ReadableByteChannel c, int maxLine) {
    this(c, maxLine, maxLine);
  }

  /** As {@link #LineReader(ReadableByteChannel, int)}, and reads of up to {@code maxRead} bytes. */
  public LineReader(ReadableByteChannel c, int maxLine, int maxRead) {
    this.c = c;
    this.maxLine = maxLine;
    this.buf = ByteBuffer.allocate(Math.max(maxLine, maxRead));
  }

  /**
   * The next {@code n} bytes (at most the line bound), for a protocol that goes on in frames after
   * a first line; {@code null} at end of stream.
   */
  public byte[] read(int n) throws IOException {
    if (n > buf.capacity()) {
      throw new TooLong();
    }
    while (buf.position() < n) {
      if (c.read(buf) < 0) {
        return null;
      }
    }
    byte[] out = new byte[n];
    System.arraycopy(buf.array(), 0, out, 0, n);
    int rest = buf.position() - n;
    System.arraycopy(buf.array(), n, buf.array(), 0, rest);
    buf.position(rest);
    return out;
  }

  /** The next line without its newline; {@code null} at end of stream. */
  public String next() throws IOException {
    while (true) {
      int end = Math.min(buf.position(), maxLine);
      for (int i = 0; i < end; i++) {
        if (buf.get(i) == '\n') {
          String line = new String(buf.array(), 0, i, StandardCharsets.UTF_8);
          int rest = buf.position() - i - 1;
          System.arraycopy(buf.array(), i + 1, buf.array(), 0, rest);
          buf.position(rest);
          return line;
        }
      }
      if (buf.position() >= maxLine) {
        throw new TooLong();
      }
      int room = maxLine - buf.position();
      ByteBuffer window = buf.duplicate().limit(buf.position() + room);
      int n = c.read(window);
      if (n < 0) {
        return null;
      }
      buf.position(window.position());
    }
  }
}
