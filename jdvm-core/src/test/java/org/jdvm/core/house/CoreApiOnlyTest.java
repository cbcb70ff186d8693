package org.jdvm.core.house;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every other module speaks to the core through its API packages only ({@code org.jdvm.core},
 * {@code org.jdvm.core.engine}'s {@code Core} and {@code Recovery}, {@code org.jdvm.core.query},
 * and the journal's pure half, {@code org.jdvm.core.journal}): commands, outcomes, changes,
 * effects, views, value types, and the journal's codec. The core's other packages are public only
 * so its own features can share them; the build cannot hide them (every module runs on the class
 * path, where a {@code module-info} would restrict nothing), so this scan does.
 */
class CoreApiOnlyTest {
  private static final Set<String> API =
      Set.of(
          "org.jdvm.core", "org.jdvm.core.engine", "org.jdvm.core.query", "org.jdvm.core.journal");

  @Test
  void noOtherModuleNamesTheCoresInternalPackages() {
    Map<String, String> owner = Sources.packages();
    List<String> found = new ArrayList<>();
    for (Sources.Source s : Sources.all()) {
      if (s.module().equals("jdvm-core")) {
        continue;
      }
      for (String pkg : Sources.referencedPackages(s, owner)) {
        if (pkg.startsWith("org.jdvm.core") && !API.contains(pkg)) {
          found.add(s.where() + ": " + pkg);
        }
      }
    }
    assertThat(found).isEmpty();
  }
}
