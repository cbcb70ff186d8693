package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Level;
import org.jdvm.host.LogCapture;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;

/**
 * What a rank logs ({@code PMIx_Log}) reaches the DVM's log quoted: a line break in it cannot forge
 * a log line of the rank's choosing, and no control character (a terminal escape, say) gets through
 * (docs/protocol.md "How jdvm reads the standard commands", Log).
 */
class LogTextTest {
  @Test
  void aRanksLogTextCannotForgeALineOrCarryAControlCharacter() {
    List<String> lines;
    try (LogCapture log = LogCapture.of(OutputRouter.PEER_LOGGER, Level.ALL)) {
      String forged =
          "ok\n2026-11-28 10:00:00 SEVERE pmix failure=JVM_FAILED\r\u001b[2Jbye\u0085\u2028\"q\"\\";
      OutputRouter.toDvmLog(new Proc("job@1", 3), forged.getBytes(StandardCharsets.UTF_8));
      lines = log.lines();
    }
    assertThat(lines).hasSize(1);
    String line = lines.get(0);
    assertThat(line).doesNotContain("\n", "\r", "\u001b", "\u0085", "\u2028");
    assertThat(line)
        .isEqualTo(
            "proc=job@1.3 log=\"ok\\n2026-11-28 10:00:00 SEVERE pmix failure=JVM_FAILED\\r"
                + "\\u001b[2Jbye\\u0085\\u2028\\\"q\\\"\\\\\"");
  }
}
