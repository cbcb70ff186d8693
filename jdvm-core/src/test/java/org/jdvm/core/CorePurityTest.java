package org.jdvm.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core's main code does no I/O, starts no threads, reads no clock, draws no random numbers and
 * logs nothing (architecture.md §1, house-style.md "The core"). This scans the sources and fails on
 * any trace of those, so it stays that way.
 */
class CorePurityTest {
  private static final Path MAIN = Path.of("src/main/java/org/jdvm/core");

  private static final List<Pattern> FORBIDDEN =
      List.of(
          Pattern.compile("\\bjava\\.io\\b"),
          Pattern.compile("\\bjava\\.nio\\b"),
          Pattern.compile("\\bjava\\.net\\b"),
          Pattern.compile("\\bjava\\.util\\.concurrent\\b"),
          Pattern.compile("\\bjava\\.util\\.logging\\b"),
          Pattern.compile("\\bjava\\.time\\b"),
          Pattern.compile("\\bjava\\.util\\.Random\\b"),
          Pattern.compile("\\bjava\\.lang\\.System\\b"),
          Pattern.compile("\\bThread\\b"),
          Pattern.compile("\\bExecutor"),
          Pattern.compile("\\bsynchronized\\b"),
          Pattern.compile("\\bvolatile\\b"),
          Pattern.compile(
              "System\\s*\\.\\s*(nanoTime|currentTimeMillis|out|err|getenv|getProperty|exit)"),
          Pattern.compile("\\bRuntime\\s*\\.\\s*getRuntime"),
          Pattern.compile(
              "\\b(Math\\s*\\.\\s*random|ThreadLocalRandom|SecureRandom|SplittableRandom)"),
          Pattern.compile("\\bnew\\s+Random\\s*\\("),
          Pattern.compile("\\bUUID\\s*\\.\\s*randomUUID"),
          Pattern.compile("\\b(Instant|LocalDateTime|LocalDate|Clock|ZonedDateTime)\\s*\\.\\s*now"),
          Pattern.compile("\\b(Logger|LoggerFactory|slf4j|log4j|printStackTrace)\\b"),
          Pattern.compile(
              "\\b(Files|Paths|Socket|ServerSocket|FileInputStream|FileOutputStream)\\b"),
          Pattern.compile("\\bProcessBuilder\\b"),
          Pattern.compile("\\bhashCode\\s*\\(\\s*\\)\\s*%"));

  @Test
  void theCoreSourcesUseNoIoThreadsClocksRandomnessOrLogging() throws IOException {
    List<String> offences = new ArrayList<>();
    List<Path> sources;
    try (Stream<Path> s = Files.walk(MAIN)) {
      sources = s.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(sources).hasSizeGreaterThan(40);
    for (Path p : sources) {
      List<String> lines = Files.readAllLines(p);
      for (int i = 0; i < lines.size(); i++) {
        String code = stripComment(lines.get(i));
        for (Pattern f : FORBIDDEN) {
          if (f.matcher(code).find()) {
            offences.add(MAIN.relativize(p) + ":" + (i + 1) + ": " + lines.get(i).trim());
          }
        }
      }
    }
    assertThat(offences).as("forbidden in jdvm-core main code").isEmpty();
  }

  @Test
  void theScanCatchesWhatItLooksFor() {
    String[] bad = {
      "long t = System.nanoTime();", "new Thread(r).start();", "import java.io.File;",
      "double d = Math.random();", "Instant.now()", "System.out.println(x);",
      "private static final Logger LOG;", "var r = new Random(1);"
    };
    for (String line : bad) {
      assertThat(FORBIDDEN.stream().anyMatch(f -> f.matcher(line).find())).as(line).isTrue();
    }
  }

  /** Drops a trailing line comment and the body of javadoc/block comment lines. */
  private static String stripComment(String line) {
    String t = line.trim();
    if (t.startsWith("*") || t.startsWith("/*") || t.startsWith("//")) {
      return "";
    }
    int c = line.indexOf("//");
    return c >= 0 ? line.substring(0, c) : line;
  }
}
