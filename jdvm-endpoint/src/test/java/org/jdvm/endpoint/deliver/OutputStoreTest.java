package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The bounds of the output kept for {@code jdvm output} ({@link OutputStore}). */
class OutputStoreTest {
  private static final int OUT = OutputRouter.STDOUT_CHANNEL;
  private static final OutputStore.Bounds SMALL = new OutputStore.Bounds(64 << 10, 128 << 10);

  @Test
  void aFloodOfTinyLinesNeverHoldsMoreThanTheBoundsOverheadsIncluded() {
    OutputStore s = new OutputStore();
    s.bound(SMALL);
    s.started("a@1");
    for (int i = 0; i < 1_000_000; i++) {
      s.add("a@1", new LineCutter.Piece(i % 7, OUT, new byte[] {'x', '\n'}));
      assertThat(s.cost()).isLessThanOrEqualTo(SMALL.perJobBytes());
    }
    OutputStore.Replay r = s.replay("a@1");
    assertThat(r.writtenBytes()).isEqualTo(2_000_000);
    assertThat(r.droppedBytes()).isEqualTo(2_000_000 - 2L * r.pieces().size());
  }

  @Test
  void pastTheTotalTheOldestJobLosesItsOldestFirstAndTheNewestKeepsAll() {
    OutputStore s = new OutputStore();
    s.bound(SMALL);
    for (String job : new String[] {"a@1", "b@1", "c@1"}) {
      s.started(job);
      for (int i = 0; i < 48; i++) {
        s.add(job, new LineCutter.Piece(0, OUT, new byte[1000]));
      }
    }
    assertThat(s.cost()).isLessThanOrEqualTo(SMALL.totalBytes());
    assertThat(s.replay("a@1").droppedBytes()).isPositive();
    assertThat(s.replay("b@1").droppedBytes()).isZero();
    assertThat(s.replay("c@1").droppedBytes()).isZero();
    s.retired("a@1");
    assertThat(s.replay("a@1")).isNull();
    assertThat(s.cost()).isEqualTo(2 * 48 * (1000L + OutputStore.PIECE_OVERHEAD));
  }

  @Test
  void pastItsBoundAJobLosesWholeLinesOfItsOldestPieceNotTheWholePiece() {
    OutputStore s = new OutputStore();
    s.bound(SMALL);
    s.started("a@1");
    byte[] piece = new byte[40 * 1000]; // 40 lines of 1,000 bytes, as a 40 KB read is cut
    for (int i = 999; i < piece.length; i += 1000) {
      piece[i] = '\n';
    }
    for (int n = 0; n < 3; n++) {
      s.add("a@1", new LineCutter.Piece(0, OUT, piece));
    }
    OutputStore.Replay r = s.replay("a@1");
    long kept = r.writtenBytes() - r.droppedBytes();
    // Within a line of the bound, not a whole piece below it; what goes is whole lines.
    assertThat(kept).isGreaterThan(SMALL.perJobBytes() - 1000 - 2L * OutputStore.PIECE_OVERHEAD);
    assertThat(r.droppedBytes() % 1000).isZero();
    assertThat(s.cost()).isLessThanOrEqualTo(SMALL.perJobBytes());
  }

  @Test
  void aPieceLargerThanAJobsBoundKeepsItsTail() {
    OutputStore s = new OutputStore();
    s.bound(SMALL);
    s.started("a@1");
    byte[] big = new byte[200 << 10];
    big[big.length - 1] = '\n';
    s.add("a@1", new LineCutter.Piece(0, OUT, big));
    OutputStore.Replay r = s.replay("a@1");
    assertThat(r.pieces()).hasSize(1);
    byte[] kept = r.pieces().get(0).bytes();
    assertThat(kept[kept.length - 1]).isEqualTo((byte) '\n');
    assertThat(kept.length + r.droppedBytes()).isEqualTo(big.length);
    assertThat(s.cost()).isLessThanOrEqualTo(SMALL.perJobBytes());
  }

  @Test
  void boundsOutsideTheirRangeAreRefused() {
    assertThatThrownBy(() -> new OutputStore.Bounds(1000, 1 << 20)).hasMessageContaining("per job");
    assertThatThrownBy(() -> new OutputStore.Bounds(1 << 20, 64 << 10))
        .hasMessageContaining("at least the output kept per job");
  }

  @Test
  void aJobNotStartedOrRetiredKeepsNothing() {
    OutputStore s = new OutputStore();
    s.add("x@1", new LineCutter.Piece(0, OUT, new byte[] {'a', '\n'}));
    assertThat(s.replay("x@1")).isNull();
    assertThat(s.cost()).isZero();
  }
}
