package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link LineCutter}: no rank's bytes ever land in the middle of another rank's line. */
class LineCutterTest {
  private static final int OUT = OutputRouter.STDOUT_CHANNEL;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(List<LineCutter.Piece> pieces) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    pieces.forEach(p -> out.writeBytes(p.bytes()));
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void wholeLinesGoOutAtOnceAndAPartialLineWaitsForItsNewline() {
    LineCutter c = new LineCutter();
    assertThat(text(c.accept(0, OUT, b("a\nb\nNam")))).isEqualTo("a\nb\n");
    assertThat(text(c.accept(1, OUT, b("BBB\n")))).isEqualTo("BBB\n");
    assertThat(text(c.accept(0, OUT, b("e? ")))).isEmpty();
    assertThat(text(c.accept(0, OUT, b("x\ny")))).isEqualTo("Name? x\n");
  }

  @Test
  void aRanksPartialLineGoesOutAtItsEnd() {
    LineCutter c = new LineCutter();
    c.accept(0, OUT, b("AA"));
    c.accept(0, OutputRouter.STDERR_CHANNEL, b("E"));
    assertThat(c.end(1)).isEmpty();
    assertThat(text(c.end(0))).isEqualTo("AAE");
    assertThat(c.endAll()).isEmpty();
  }

  @Test
  void whatArrivesForARankThatEndedGoesOutAsItIs() {
    // A quick process's output can reach the cutter after its end (held until its spawn was
    // answered): nothing would release a partial line then (`jdvm run echo -n x` printed nothing).
    LineCutter c = new LineCutter();
    assertThat(c.end(0)).isEmpty();
    assertThat(text(c.accept(0, OUT, b("2 x")))).isEqualTo("2 x");
    assertThat(text(c.accept(1, OUT, b("y")))).as("a rank still running waits").isEmpty();
  }

  @Test
  void aPartialLinePastTheBoundGoesOutAsItIs() {
    LineCutter c = new LineCutter();
    byte[] big = new byte[LineCutter.MAX_HELD + 1];
    java.util.Arrays.fill(big, (byte) 'B');
    assertThat(text(c.accept(1, OUT, big))).isEqualTo("B".repeat(LineCutter.MAX_HELD + 1));
    assertThat(c.endAll()).isEmpty();
  }

  @Test
  void whatAJobHoldsIsBoundedToo() {
    LineCutter c = new LineCutter();
    byte[] part = new byte[LineCutter.MAX_HELD];
    java.util.Arrays.fill(part, (byte) 'P');
    int ranks = LineCutter.MAX_HELD_PER_JOB / LineCutter.MAX_HELD;
    for (int r = 0; r < ranks; r++) {
      assertThat(c.accept(r, OUT, part)).as("rank %d held", r).isEmpty();
    }
    assertThat(c.accept(ranks, OUT, b("x")))
        .singleElement()
        .satisfies(p -> assertThat(p.bytes()).hasSize(1));
    assertThat(c.end(0))
        .singleElement()
        .satisfies(p -> assertThat(p.bytes()).hasSize(LineCutter.MAX_HELD));
    assertThat(c.accept(ranks, OUT, b("y"))).isEmpty();
  }

  @Test
  void randomChunksOfManyRanksNeverInterleaveMidLine() {
    Random random = new Random(42);
    LineCutter c = new LineCutter();
    int ranks = 4;
    String[] lines = new String[ranks];
    int[] pos = new int[ranks];
    int[] left = new int[ranks];
    for (int r = 0; r < ranks; r++) {
      lines[r] = String.valueOf((char) ('A' + r)).repeat(1000 + 500 * r) + "\n";
      left[r] = 50;
    }
    List<LineCutter.Piece> out = new ArrayList<>();
    while (java.util.Arrays.stream(left).sum() > 0) {
      int r = random.nextInt(ranks);
      if (left[r] == 0) {
        continue;
      }
      int n = Math.min(1 + random.nextInt(900), lines[r].length() - pos[r]);
      out.addAll(c.accept(r, OUT, b(lines[r].substring(pos[r], pos[r] + n))));
      pos[r] += n;
      if (pos[r] == lines[r].length()) {
        pos[r] = 0;
        left[r]--;
      }
    }
    for (int r = 0; r < ranks; r++) {
      out.addAll(c.end(r));
    }
    List<String> got = text(out).lines().toList();
    assertThat(got).hasSize(200);
    for (String l : got) {
      assertThat(l.chars().distinct().count()).as("one rank per line").isEqualTo(1);
    }
  }
}
