package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The endpoint's layering, as {@code org/jdvm/endpoint/package-info.java} states it, checked on the
 * sources: which of the endpoint's packages each may name (by import or fully qualified), and that
 * no class exposes a mutable field for another to reach into.
 */
class EndpointLayeringTest {
  private static final Path ROOT = Path.of("src/main/java/org/jdvm/endpoint");
  private static final String BASE = "org.jdvm.endpoint";

  /** Each package and the endpoint packages it may use; "" is the endpoint's face. */
  private static final Map<String, Set<String>> MAY_USE =
      Map.of(
          "transport", Set.of(),
          "deliver", Set.of("transport"),
          "wireup", Set.of(),
          "serve", Set.of("transport", "deliver", "wireup"),
          "pmi", Set.of("serve", "wireup", "deliver"),
          "", Set.of("transport", "deliver", "serve", "wireup", "pmi"));

  private static final Pattern REFERENCE = Pattern.compile("\\borg\\.jdvm\\.endpoint\\.(\\w+)");

  /** A field declared at class level that is neither private nor a static final constant. */
  private static final Pattern OPEN_FIELD =
      Pattern.compile(
          "^  (?! )(?!return |throw )(?!private )(?!public static final )(?!static final )"
              + "(?:public |protected )?(?:final |volatile )*[\\w<>,?\\[\\]]+(?: [\\w<>,?\\[\\]]+)? \\w+( = .*)?;$");

  @Test
  void eachPackageUsesOnlyThePackagesBelowIt() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Path file : sources()) {
      String pkg = packageOf(file);
      List<String> lines = Files.readAllLines(file);
      for (int n = 0; n < lines.size(); n++) {
        Matcher m = REFERENCE.matcher(lines.get(n));
        while (m.find()) {
          String used = m.group(1);
          String target = MAY_USE.containsKey(used) ? used : "";
          if (!target.equals(pkg) && !MAY_USE.get(pkg).contains(target)) {
            violations.add(ROOT.relativize(file) + ":" + (n + 1) + " uses " + BASE + "." + used);
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void noClassExposesAMutableFieldToAnother() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Path file : sources()) {
      List<String> lines = Files.readAllLines(file);
      for (int n = 0; n < lines.size(); n++) {
        if (OPEN_FIELD.matcher(lines.get(n)).matches()) {
          violations.add(ROOT.relativize(file) + ":" + (n + 1) + ": " + lines.get(n).trim());
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void theRuleCatchesAnUpwardImport() {
    Matcher m = REFERENCE.matcher("import org.jdvm.endpoint.serve.Exchange;");
    assertThat(m.find()).isTrue();
    assertThat(MAY_USE.get("transport")).doesNotContain(m.group(1));
    assertThat(OPEN_FIELD.matcher("  final Pending pending = new Pending();").matches()).isTrue();
    assertThat(OPEN_FIELD.matcher("  private final Pending pending;").matches()).isFalse();
    assertThat(OPEN_FIELD.matcher("  public static final int MAX = 4;").matches()).isFalse();
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> s = Files.walk(ROOT)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  private static String packageOf(Path file) {
    Path rel = ROOT.relativize(file.getParent());
    String first =
        rel.getNameCount() == 0 || rel.toString().isEmpty() ? "" : rel.getName(0).toString();
    assertThat(MAY_USE).as("a package the layering rule does not know").containsKey(first);
    return first;
  }
}
