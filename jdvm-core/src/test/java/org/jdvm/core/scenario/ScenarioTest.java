package org.jdvm.core.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every scenario file under {@code src/test/resources/scenarios}, one per spec clause or decision,
 * as a test. Run with {@code -Djdvm.rewrite=true} to rewrite the files with the actual output.
 */
class ScenarioTest {
  static final Path DIR = Path.of("src/test/resources/scenarios");

  @TestFactory
  Stream<DynamicTest> everyScenarioFileProducesExactlyItsExpectedOutput() throws IOException {
    boolean rewrite = Boolean.getBoolean("jdvm.rewrite");
    List<Path> files;
    try (Stream<Path> s = Files.list(DIR)) {
      files = s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    return files.stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file.getFileName().toString(),
                    () -> {
                      String expected = Files.readString(file, StandardCharsets.UTF_8);
                      String actual = new ScenarioRunner().run(file);
                      if (rewrite) {
                        Files.writeString(file, actual, StandardCharsets.UTF_8);
                      } else {
                        assertThat(actual).isEqualTo(expected);
                      }
                    }));
  }
}
