package org.jdvm.endpoint.deliver;

import java.util.List;

/** One job's line cutting ({@code null}: raw) and files ({@code null}: none). */
record JobLines(LineCutter cutter, OutputFiles files) {
  List<LineCutter.Piece> accept(int rank, int channel, byte[] chunk) {
    return cutter == null
        ? List.of(new LineCutter.Piece(rank, channel, chunk))
        : cutter.accept(rank, channel, chunk);
  }

  List<LineCutter.Piece> end(int rank) {
    return cutter == null ? List.of() : cutter.end(rank);
  }

  List<LineCutter.Piece> jobEnded() {
    return cutter == null ? List.of() : cutter.jobEnded();
  }

  List<LineCutter.Piece> endAll() {
    return cutter == null ? List.of() : cutter.endAll();
  }
}
