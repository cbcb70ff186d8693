package org.jdvm.endpoint.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Open MPI 4.1's help message as {@code PMIx_Log} carries it (docs/wireup.md §c.6): four opal_dss
 * items, of which the fourth is the text the user must see.
 */
class LogOpsTest {
  private static void item(ByteArrayOutputStream b, int count) {
    b.writeBytes(ByteBuffer.allocate(4).putInt(count).array());
  }

  private static void string(ByteArrayOutputStream b, String s) {
    item(b, 1);
    byte[] bytes = (s + "\0").getBytes(StandardCharsets.UTF_8);
    item(b, bytes.length);
    b.writeBytes(bytes);
  }

  private static byte[] blob(String text) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    string(b, "help-mpi-api.txt");
    string(b, "mpi-abort");
    item(b, 1);
    b.write(1);
    string(b, text);
    return b.toByteArray();
  }

  @Test
  void theFourthItemOfOpenMpisBlobIsTheText() {
    String text = "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD\n";
    assertThat(LogOps.showHelpText(blob(text))).isEqualTo(text);
  }

  @Test
  void aBlobNotLaidOutSoIsNotReadAsText() {
    byte[] good = blob("text");
    assertThat(LogOps.showHelpText(new byte[0])).isNull();
    assertThat(LogOps.showHelpText(Arrays.copyOf(good, good.length - 1))).as("cut short").isNull();
    assertThat(LogOps.showHelpText(Arrays.copyOf(good, good.length + 1)))
        .as("bytes after")
        .isNull();
    byte[] twoValues = good.clone();
    twoValues[3] = 2;
    assertThat(LogOps.showHelpText(twoValues)).as("an item of two values").isNull();
    byte[] huge = good.clone();
    huge[4] = 0x7f;
    assertThat(LogOps.showHelpText(huge)).as("a length past the end").isNull();
  }
}
