package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The endpoint's protocol, one data-driven file per operation family ({@code
 * src/test/resources/protocol/}): requests in, replies and events out, byte-exact through a fully
 * described buffer. {@code -Djdvm.rewrite=true} rewrites the files with what the endpoint does now;
 * review the diff.
 */
class ProtocolFileTest {
  private static final Path DIR = Path.of("src/test/resources/protocol");

  @TempDir Path home;

  static Stream<Path> files() throws IOException {
    return Files.list(DIR).filter(p -> p.toString().endsWith(".txt")).sorted();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void theEndpointAnswersAsTheFileSays(Path file) throws IOException {
    String expected = Files.readString(file, StandardCharsets.UTF_8);
    String actual;
    try (ProtocolRunner runner = new ProtocolRunner(home)) {
      actual = runner.run(file);
    }
    if (Boolean.getBoolean("jdvm.rewrite")) {
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    assertThat(actual).isEqualTo(expected);
  }
}
