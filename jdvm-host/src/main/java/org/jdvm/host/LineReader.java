package org.jdvm.host;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Newline-ended lines from a channel, each at most a fixed number of bytes, newline included: what
 * a line protocol's server reads (simple PMI at the controller and at a node agent's relay,
 * docs/protocol.md "Simple PMI"). A line past the bound is {@link TooLong}: its end cannot be
 * found, so the connection must end. Not thread-safe: one reader per channel.
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

  /** Lines of {@code c} of at most {@code maxLine} bytes, newline included. */
  public LineReader(ReadableByteChannel c, int maxLine) {
    this.c = c;
    this.buf = ByteBuffer.allocate(maxLine);
  }

  /** The next line without its newline; {@code null} at end of stream. */
  public String next() throws IOException {
    while (true) {
      for (int i = 0; i < buf.position(); i++) {
        if (buf.get(i) == '\n') {
          String line = new String(buf.array(), 0, i, StandardCharsets.UTF_8);
          int rest = buf.position() - i - 1;
          System.arraycopy(buf.array(), i + 1, buf.array(), 0, rest);
          buf.position(rest);
          return line;
        }
      }
      if (!buf.hasRemaining()) {
        throw new TooLong();
      }
      if (c.read(buf) < 0) {
        return null;
      }
    }
  }
}
