package org.jdvm.endpoint.deliver;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts one job's output at newlines, per rank and channel, so that no receiver ever sees one rank's
 * output in the middle of another rank's line (docs/ARCHITECTURE.md "Output lines"). Chunks arrive
 * as the ranks' pipes were read, of any size; complete lines go out at once, whole.
 *
 * <p>A partial last line goes out at once too when no other rank is in the middle of a line on that
 * channel, so that a prompt without a newline still shows; that rank then <em>holds the line</em>:
 * the others' output on the channel is held until it ends its line or ends. Bounds: a rank's held
 * partial line past {@link #MAX_HELD} bytes goes out as it is; a rank holding the line while
 * another has more than {@link #MAX_HELD} bytes held loses the line to it. Not thread-safe: its
 * {@link OutputRouter} calls it under its lock.
 */
final class LineCutter {
  /** What is held per rank and channel before it goes out anyway (64 KiB). */
  static final int MAX_HELD = 64 << 10;

  /** A piece to deliver: whole lines, or a partial line as described above. */
  record Piece(int rank, int channel, byte[] bytes) {}

  /** Held bytes per channel, per rank, in the order the ranks first held some. */
  private final Map<Integer, LinkedHashMap<Integer, ByteArrayOutputStream>> held = new HashMap<>();

  /** Per channel, the rank whose partial line is out (holds the line). */
  private final Map<Integer, Integer> owner = new HashMap<>();

  /** Ranks that ended while another held the line: their tails go out as soon as it is free. */
  private final Set<Integer> ended = new HashSet<>();

  /** A chunk of {@code rank} on {@code channel}: what may go out now. */
  List<Piece> accept(int rank, int channel, byte[] bytes) {
    if (bytes.length == 0) {
      return List.of();
    }
    held.computeIfAbsent(channel, c -> new LinkedHashMap<>())
        .computeIfAbsent(rank, r -> new ByteArrayOutputStream())
        .writeBytes(bytes);
    List<Piece> out = new ArrayList<>();
    drain(channel, out);
    return out;
  }

  /** {@code rank} ended: its held output goes out (once the line is free), unterminated. */
  List<Piece> end(int rank) {
    List<Piece> out = new ArrayList<>();
    for (Integer channel : List.copyOf(held.keySet())) {
      Integer o = owner.get(channel);
      if (o != null && o == rank) {
        owner.remove(channel);
      }
      ended.add(rank);
      drain(channel, out);
    }
    return out;
  }

  /** Everything still held, as it is (the job is gone). */
  List<Piece> endAll() {
    List<Piece> out = new ArrayList<>();
    for (var byChannel : held.entrySet()) {
      for (var e : byChannel.getValue().entrySet()) {
        if (e.getValue().size() > 0) {
          out.add(new Piece(e.getKey(), byChannel.getKey(), e.getValue().toByteArray()));
        }
      }
    }
    held.clear();
    owner.clear();
    ended.clear();
    return out;
  }

  private void drain(int channel, List<Piece> out) {
    LinkedHashMap<Integer, ByteArrayOutputStream> byRank = held.get(channel);
    Integer o = owner.get(channel);
    if (o != null) {
      ByteArrayOutputStream buf = byRank.get(o);
      byte[] b = buf == null ? new byte[0] : buf.toByteArray();
      int nl = lastNewline(b);
      if (nl < 0) {
        emit(out, o, channel, b, b.length, byRank);
        if (!othersOverBound(byRank, o)) {
          return; // the line is still o's
        }
      } else {
        emit(out, o, channel, b, nl + 1, byRank);
      }
      owner.remove(channel);
    }
    freeLine(channel, byRank, out);
  }

  /** Nobody holds the line: every rank's whole lines go out; a single partial line takes it. */
  private void freeLine(
      int channel, LinkedHashMap<Integer, ByteArrayOutputStream> byRank, List<Piece> out) {
    List<Integer> tails = new ArrayList<>();
    for (Integer rank : List.copyOf(byRank.keySet())) {
      byte[] b = byRank.get(rank).toByteArray();
      if (ended.contains(rank)) {
        emit(out, rank, channel, b, b.length, byRank);
        continue;
      }
      int nl = lastNewline(b);
      byte[] rest = emit(out, rank, channel, b, nl + 1, byRank);
      if (rest.length > MAX_HELD) {
        emit(out, rank, channel, rest, rest.length, byRank);
      } else if (rest.length > 0) {
        tails.add(rank);
      }
    }
    if (tails.size() == 1) {
      int rank = tails.get(0);
      byte[] b = byRank.get(rank).toByteArray();
      emit(out, rank, channel, b, b.length, byRank);
      owner.put(channel, rank);
    }
  }

  private static boolean othersOverBound(Map<Integer, ByteArrayOutputStream> byRank, int o) {
    for (var e : byRank.entrySet()) {
      if (e.getKey() != o && e.getValue().size() > MAX_HELD) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends the first {@code n} bytes of {@code b} (rank's held bytes); keeps and returns the rest.
   */
  private byte[] emit(
      List<Piece> out,
      int rank,
      int channel,
      byte[] b,
      int n,
      Map<Integer, ByteArrayOutputStream> byRank) {
    if (n > 0) {
      out.add(new Piece(rank, channel, java.util.Arrays.copyOf(b, n)));
    }
    byte[] rest = java.util.Arrays.copyOfRange(b, n, b.length);
    if (rest.length == 0) {
      byRank.remove(rank);
    } else {
      ByteArrayOutputStream keep = new ByteArrayOutputStream(rest.length);
      keep.writeBytes(rest);
      byRank.put(rank, keep);
    }
    return rest;
  }

  private static int lastNewline(byte[] b) {
    for (int i = b.length - 1; i >= 0; i--) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }
}
