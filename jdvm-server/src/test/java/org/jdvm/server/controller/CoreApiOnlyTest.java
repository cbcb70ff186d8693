package org.jdvm.server.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server speaks to the core through its API packages only ({@code org.jdvm.core}, {@code
 * org.jdvm.core.query} and the journal's pure half, {@code org.jdvm.core.journal}): commands,
 * outcomes, changes, effects, views, value types, and the journal's codec and recovery. The core's
 * other packages are public only so its own features can share them; the build cannot hide them
 * (every module runs on the class path, where a {@code module-info} would restrict nothing), so
 * this scan does.
 */
class CoreApiOnlyTest {
  private static final Path MAIN = Path.of("src/main/java");
  private static final Pattern IMPORT =
      Pattern.compile(
          "^import\\s+(?:static\\s+)?(org\\.jdvm\\.core\\.[\\w.]+);", Pattern.MULTILINE);
  private static final Set<String> API =
      Set.of("org.jdvm.core", "org.jdvm.core.query", "org.jdvm.core.journal");

  @Test
  void theServerImportsNothingFromTheCoresInternalPackages() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = IMPORT.matcher(Files.readString(f));
        while (m.find()) {
          String name = m.group(1);
          if (!API.contains(packageOf(name))) {
            found.add(MAIN.relativize(f) + ": " + name);
          }
        }
      }
    }
    assertThat(found).isEmpty();
  }

  /** The package of an imported name: the part before the first capitalised segment. */
  private static String packageOf(String name) {
    StringBuilder pkg = new StringBuilder();
    for (String part : name.split("\\.")) {
      if (Character.isUpperCase(part.charAt(0))) {
        break;
      }
      pkg.append(pkg.isEmpty() ? "" : ".").append(part);
    }
    return pkg.toString();
  }
}
