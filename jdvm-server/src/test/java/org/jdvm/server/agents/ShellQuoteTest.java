package org.jdvm.server.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** What ssh hands the remote shell must reach the command as the same words, whatever they hold. */
class ShellQuoteTest {
  private static final String HOSTILE = "a Z0'\"`$(){};|&<>*?[]~#!\\\n\t -=%@,.:/^";

  /** The words a POSIX shell makes of {@code printf '%s\0' <quoted words>}. */
  private static List<String> throughTheShell(List<String> words) throws Exception {
    Process p =
        new ProcessBuilder("/bin/sh", "-c", "printf '%s\\000' " + ShellQuote.join(words)).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    String s = new String(out, StandardCharsets.UTF_8);
    if (s.isEmpty()) {
      return List.of();
    }
    return Arrays.asList(s.substring(0, s.length() - 1).split("\0", -1));
  }

  @Test
  void hostileWordsReachTheCommandUnchangedAndRunNothing() throws Exception {
    Random random = new Random(1124);
    for (int round = 0; round < 40; round++) {
      List<String> words = new ArrayList<>();
      int n = 1 + random.nextInt(4);
      for (int i = 0; i < n; i++) {
        StringBuilder w = new StringBuilder();
        int len = 1 + random.nextInt(12);
        for (int j = 0; j < len; j++) {
          w.append(HOSTILE.charAt(random.nextInt(HOSTILE.length())));
        }
        words.add(w.toString());
      }
      assertThat(throughTheShell(words)).as("seed 1124 round " + round).isEqualTo(words);
    }
  }

  @Test
  void theClassicInjectionsStayWords() throws Exception {
    List<String> words =
        List.of("$(touch /tmp/jdvm-pwned)", "`id`", "a; rm -rf /x", "'", "''", "it's", "é", "");
    assertThat(throughTheShell(words)).isEqualTo(words);
  }

  @Test
  void safeWordsStayBareAndOthersAreQuoted() {
    assertThat(ShellQuote.word("/usr/bin/java")).isEqualTo("/usr/bin/java");
    assertThat(ShellQuote.word("--node=host1")).isEqualTo("--node=host1");
    assertThat(ShellQuote.word("a b")).isEqualTo("'a b'");
    assertThat(ShellQuote.word("it's")).isEqualTo("'it'\\''s'");
    assertThat(ShellQuote.word("")).isEqualTo("''");
    assertThatThrownBy(() -> ShellQuote.word("a\0b")).isInstanceOf(IllegalArgumentException.class);
  }
}
