package org.jdvm.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * jdvm-pmix is a pure library (house style, "The core"): no I/O, threads, clocks, randomness or
 * logging in {@code src/main}. This scans the sources, comments and string literals removed, for
 * the APIs that would bring them in.
 */
class PureLibraryTest {
  private static final Path MAIN = Path.of("src", "main", "java");

  private static final Pattern FORBIDDEN =
      Pattern.compile(
          "\\bjava\\.io\\.File\\b|\\bjava\\.nio\\.file\\b|\\bjava\\.net\\b|\\bFile(Input|Output)Stream\\b"
              + "|\\bThread\\b|\\bExecutor(Service|s)?\\b|\\bCompletableFuture\\b|\\bsynchronized\\b"
              + "|System\\s*\\.\\s*(nanoTime|currentTimeMillis|out|err|getenv|getProperty)\\b"
              + "|\\bInstant\\s*\\.\\s*now\\b|\\bClock\\b|\\bLocalDateTime\\b"
              + "|\\b(Secure|ThreadLocal|Splittable)?Random\\b|\\bMath\\s*\\.\\s*random\\b"
              + "|\\bjava\\.util\\.logging\\b|\\borg\\.slf4j\\b|\\bSystem\\s*\\.\\s*Logger\\b|\\bLogger\\b");

  /** Source text without comments, string literals and text blocks. */
  static String code(String source) {
    return source
        .replaceAll("(?s)\"\"\".*?\"\"\"", "\"\"")
        .replaceAll("(?s)/\\*.*?\\*/", " ")
        .replaceAll("//[^\n]*", " ")
        .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
        .replaceAll("'(\\\\.|[^'\\\\])'", "' '");
  }

  static List<String> violations(String source) {
    List<String> found = new ArrayList<>();
    Matcher m = FORBIDDEN.matcher(code(source));
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  @Test
  void mainSourcesUseNoIoThreadsClocksRandomnessOrLogging() throws IOException {
    List<String> problems = new ArrayList<>();
    int files = 0;
    try (Stream<Path> paths = Files.walk(MAIN)) {
      for (Path p : paths.filter(f -> f.toString().endsWith(".java")).toList()) {
        files++;
        for (String v : violations(Files.readString(p, StandardCharsets.UTF_8))) {
          problems.add(MAIN.relativize(p) + ": " + v);
        }
      }
    }
    assertThat(files).isGreaterThan(50);
    assertThat(problems).isEmpty();
  }

  @Test
  void theScanSeesThroughNothingButCommentsAndStrings() {
    assertThat(violations("class A { long t = System.nanoTime(); }"))
        .containsExactly("System.nanoTime");
    assertThat(violations("import java.nio.file.Path;")).containsExactly("java.nio.file");
    assertThat(violations("class A { Random r = new java.util.Random(); }")).hasSize(2);
    assertThat(violations("class A { void f() { System.out.println(); } }")).hasSize(1);
    assertThat(violations("class A { new Thread(() -> {}); }")).hasSize(1);
    assertThat(violations("/** No Thread here. */ class A { String s = \"System.out\"; }"))
        .isEmpty();
    assertThat(violations("class A { // Logger in a comment\n }")).isEmpty();
  }
}
