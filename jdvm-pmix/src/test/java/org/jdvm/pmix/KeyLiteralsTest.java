package org.jdvm.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jdvm.pmix.dict.Attribute;
import org.jdvm.pmix.dict.AttributeDictionary;
import org.junit.jupiter.api.Test;

/**
 * One registry of attribute keys (pmix-wire.md §11): main code of every module names a key through
 * {@link PmixKeys} or {@link JdvmProtocol}, never as a {@code "pmix.…"} or {@code "jdvm.…"} string
 * literal, so a key's spelling lives in one place, checked against the dictionary.
 */
class KeyLiteralsTest {
  private static final Path ROOT = Path.of("..");

  /** The registry itself, relative to {@link #ROOT}. */
  private static final Set<String> REGISTRY =
      Set.of(
          "jdvm-pmix/src/main/java/org/jdvm/pmix/PmixKeys.java",
          "jdvm-pmix/src/main/java/org/jdvm/pmix/JdvmProtocol.java");

  /** A string literal in a source: its 1-based line and its text between the quotes, raw. */
  record Literal(int line, String text) {}

  /**
   * The ordinary string literals of a Java source, skipping comments, character literals and text
   * blocks (text blocks are prose or tables, not a key a program names).
   */
  static List<Literal> literals(String source) {
    List<Literal> out = new ArrayList<>();
    int line = 1;
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '\n') {
        line++;
        i++;
      } else if (source.startsWith("//", i)) {
        i = source.indexOf('\n', i);
        i = i < 0 ? n : i;
      } else if (source.startsWith("/*", i) || source.startsWith("\"\"\"", i)) {
        String close = c == '/' ? "*/" : "\"\"\"";
        int end = source.indexOf(close, i + close.length());
        end = end < 0 ? n : end + close.length();
        line += (int) source.substring(i, end).chars().filter(ch -> ch == '\n').count();
        i = end;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        if (c == '"') {
          out.add(new Literal(line, source.substring(i + 1, Math.min(j, n))));
        }
        i = j + 1;
      } else {
        i++;
      }
    }
    return out;
  }

  /** Literals that look like keys and are not: libpmix's rendezvous file name prefix. */
  private static final Set<String> NOT_KEYS = Set.of("pmix.sys.");

  static boolean looksLikeAKey(String literal) {
    return !NOT_KEYS.contains(literal) && literal.matches("(pmix|jdvm)\\.[A-Za-z].*");
  }

  @Test
  void theScannerFindsKeyLiteralsInCodeAndIgnoresCommentsCharactersAndTextBlocks() {
    String source =
        """
        // "pmix.in.a.line.comment"
        /* "pmix.in.a.block.comment"
           "jdvm.still.in.it" */
        class X {
          char quote = '"';
          String escaped = "say \\"pmix.not.at.the.start\\"";
          String table = \"""
              "pmix.in.a.text.block"
              \""";
          String key = "pmix.jobid"; String own = "jdvm.alloc.end";
          String prose = "pmix is a protocol"; String pkg = "org.jdvm.pmix.X";
        }
        """;
    List<String> found = new ArrayList<>();
    for (Literal l : literals(source)) {
      if (looksLikeAKey(l.text())) {
        found.add(l.line() + ":" + l.text());
      }
    }
    assertThat(found).containsExactly("10:pmix.jobid", "10:jdvm.alloc.end");
  }

  @Test
  void mainCodeNamesAttributeKeysOnlyThroughTheRegistry() throws IOException {
    List<String> offences = new ArrayList<>();
    Set<String> modules = new TreeSet<>();
    int files = 0;
    try (Stream<Path> dirs = Files.list(ROOT)) {
      for (Path module :
          dirs.filter(d -> d.getFileName().toString().startsWith("jdvm-")).toList()) {
        Path main = module.resolve("src/main/java");
        if (!Files.isDirectory(main)) {
          continue;
        }
        modules.add(module.getFileName().toString());
        try (Stream<Path> paths = Files.walk(main)) {
          for (Path p : paths.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
            String rel = ROOT.relativize(p).toString().replace('\\', '/');
            if (REGISTRY.contains(rel)) {
              continue;
            }
            files++;
            for (Literal l : literals(Files.readString(p, StandardCharsets.UTF_8))) {
              if (looksLikeAKey(l.text())) {
                offences.add(rel + ":" + l.line() + ": \"" + l.text() + "\"");
              }
            }
          }
        }
      }
    }
    assertThat(modules)
        .as("the modules scanned")
        .contains("jdvm-pmix", "jdvm-core", "jdvm-server", "jdvm-client", "jdvm-cli");
    assertThat(files).isGreaterThan(200);
    assertThat(offences)
        .as("key literals outside PmixKeys and JdvmProtocol: use (or add) a constant")
        .isEmpty();
  }

  @Test
  void everyPmixKeysConstantIsNamedAfterItsAttributesCName() throws IllegalAccessException {
    int checked = 0;
    for (Field f : PmixKeys.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        Attribute a = AttributeDictionary.byKey((String) f.get(null)).orElseThrow();
        List<String> names = new ArrayList<>(a.aliases());
        names.add(a.name());
        assertThat(names).as(f.getName()).contains("PMIX_" + f.getName());
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(80);
  }

  @Test
  void jdvmsOwnKeysAreOutsidePmixsNamespaceAndDistinct() throws IllegalAccessException {
    Set<String> keys = new TreeSet<>();
    for (Field f : JdvmProtocol.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        String key = (String) f.get(null);
        assertThat(key).as(f.getName()).startsWith("jdvm.");
        assertThat(keys.add(key)).as(f.getName() + " = " + key + " is unique").isTrue();
      }
    }
    assertThat(keys).contains(JdvmProtocol.ALLOCATION_END);
  }
}
