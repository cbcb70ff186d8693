package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command a libpmix 4.2.2 client can send (codes 0–32) is either served or answered {@code
 * PMIX_ERR_NOT_SUPPORTED} at once, as the lone {@code STATUS} every 4.2.2 parser of them reads
 * first (docs/protocol.md "How jdvm reads the standard commands"): a client that asks for what jdvm
 * does not do gets an error, never a hang.
 */
class UnservedCommandsTest {
  @TempDir Path home;
  private EndpointFixture f;

  @BeforeEach
  void start() throws IOException {
    f = new EndpointFixture(home, 1, 1, 0);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void eachUnservedCommandIsNotSupportedAtOnceAsALoneStatus() throws IOException {
    List<Integer> unserved = f.endpoint.table().unserved();
    assertThat(unserved)
        .as("the wire-up commands this endpoint serves")
        .doesNotContain(
            Commands.PUBLISHNB_CMD,
            Commands.LOOKUPNB_CMD,
            Commands.UNPUBLISHNB_CMD,
            Commands.CONNECTNB_CMD,
            Commands.DISCONNECTNB_CMD,
            Commands.LOG_CMD)
        .isNotEmpty();
    List<String> answers = new ArrayList<>();
    try (RawPeer tool = RawPeer.tool(f.endpoint.tcpAddress())) {
      for (int command : unserved) {
        long t0 = System.nanoTime();
        int tag = tool.request(command, p -> {});
        Unpacker reply = tool.reply(tag).body();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(reply.unpackStatus())
            .as(Commands.name(command))
            .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
        assertThat(reply.hasRemaining()).as(Commands.name(command) + ": a lone STATUS").isFalse();
        assertThat(ms).as(Commands.name(command) + " answered at once").isLessThan(2000);
        answers.add(Commands.name(command));
      }
    }
    assertThat(answers).hasSameSizeAs(unserved);
  }
}
