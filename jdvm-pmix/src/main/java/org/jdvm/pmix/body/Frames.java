package org.jdvm.pmix.body;

import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.FrameHeader;

/**
 * A body inside a whole frame (its 16-byte header, then the body), as a relay that carries frames
 * unopened holds them and reads only the few it answers itself.
 */
public final class Frames {
  /** The command is the first unit: a few bytes, tagged or not. */
  private static final int COMMAND_BYTES = 16;

  private Frames() {}

  /** The frame's body, to be read; {@code null} when the frame has none. */
  public static Unpacker body(WireFormat format, byte[] frame) {
    return frame.length <= FrameHeader.BYTES
        ? null
        : new Unpacker(format, frame, FrameHeader.BYTES, frame.length - FrameHeader.BYTES);
  }

  /**
   * The command that starts a request's body, read from its first few bytes only; -1 when there is
   * none to read (the server then answers what it makes of the frame).
   */
  public static int command(WireFormat format, byte[] frame) {
    if (frame.length <= FrameHeader.BYTES) {
      return -1;
    }
    try {
      int n = Math.min(COMMAND_BYTES, frame.length - FrameHeader.BYTES);
      return new Unpacker(format, frame, FrameHeader.BYTES, n).unpackCommand();
    } catch (WireException | IllegalArgumentException e) {
      return -1;
    }
  }

  /** A whole frame: the header for {@code tag} and this body, the sender's index 0. */
  public static byte[] of(int tag, byte[] body) {
    byte[] f = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(f, 0);
    System.arraycopy(body, 0, f, FrameHeader.BYTES, body.length);
    return f;
  }
}
