package org.jdvm.core.house;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each module imports only the modules its README allows (the README's {@code **May import:**} line
 * is the one place that says so, as Kafka's import-control files do for Kafka), and the Maven
 * dependencies agree: a module may depend on nothing its README does not allow.
 */
class ModuleImportsTest {
  private static final Pattern MAY_IMPORT = Pattern.compile("(?m)^\\*\\*May import:\\*\\* (.*)$");
  private static final Pattern MODULE = Pattern.compile("`(jdvm-[a-z]+)`");
  private static final Pattern POM_DEPENDENCY =
      Pattern.compile(
          "<dependency>\\s*<groupId>org\\.jdvm</groupId>\\s*<artifactId>(jdvm-[a-z]+)</artifactId>"
              + "((?:(?!</dependency>).)*)</dependency>",
          Pattern.DOTALL);

  @Test
  void everyModuleImportsOnlyWhatItsReadmeAllows() throws IOException {
    assertThat(Sources.byModule())
        .as("the scan reads every module of the build")
        .containsKeys(
            "jdvm-pmix",
            "jdvm-core",
            "jdvm-host",
            "jdvm-endpoint",
            "jdvm-agent",
            "jdvm-scheduler",
            "jdvm-server",
            "jdvm-client",
            "jdvm-cli",
            "jdvm-bench");
    Map<String, Set<String>> allowed = allowed();
    Map<String, String> owner = Sources.packages();
    List<String> violations = new ArrayList<>();
    for (Sources.Source s : Sources.all()) {
      for (String pkg : Sources.referencedPackages(s, owner)) {
        String module = owner.get(pkg);
        if (!module.equals(s.module()) && !allowed.get(s.module()).contains(module)) {
          violations.add(s.where() + " (" + s.module() + ") uses " + pkg + " (" + module + ")");
        }
      }
    }
    assertThat(violations).as("imports no README allows").isEmpty();
  }

  @Test
  void everyModuleDependsOnlyOnWhatItsReadmeAllows() throws IOException {
    Map<String, Set<String>> allowed = allowed();
    List<String> violations = new ArrayList<>();
    for (String module : allowed.keySet()) {
      String pom = Files.readString(Sources.ROOT.resolve(module).resolve("pom.xml"));
      Matcher m = POM_DEPENDENCY.matcher(pom);
      while (m.find()) {
        boolean forTests = m.group(2).contains("<scope>test</scope>");
        if (!forTests && !allowed.get(module).contains(m.group(1))) {
          violations.add(module + "/pom.xml depends on " + m.group(1));
        }
      }
    }
    assertThat(violations).as("compile dependencies no README allows").isEmpty();
  }

  @Test
  void theRuleCatchesAModuleReachingUp() {
    Sources.Source s =
        new Sources.Source(
            "jdvm-host",
            Path.of("X.java"),
            "org.jdvm.host",
            "",
            Sources.code(
                "package org.jdvm.host;\n"
                    + "import org.jdvm.server.Dvm; // org.jdvm.core.engine.Core\n"
                    + "class X { String s = \"org.jdvm.endpoint.PmixEndpoint\"; }"));
    Map<String, String> owner =
        Map.of(
            "org.jdvm.host", "jdvm-host",
            "org.jdvm.server", "jdvm-server",
            "org.jdvm.core", "jdvm-core",
            "org.jdvm.endpoint", "jdvm-endpoint");
    assertThat(Sources.referencedPackages(s, owner)).containsExactly("org.jdvm.server");
    assertThat(MAY_IMPORT.matcher("**May import:** `jdvm-pmix`, `jdvm-core`.").find()).isTrue();
    Matcher compile =
        POM_DEPENDENCY.matcher(dep("jdvm-core", "") + dep("jdvm-host", "<scope>test</scope>"));
    assertThat(compile.find()).isTrue();
    assertThat(compile.group(1)).isEqualTo("jdvm-core");
    assertThat(compile.group(2)).doesNotContain("test");
    assertThat(compile.find()).isTrue();
    assertThat(compile.group(2)).contains("<scope>test</scope>");
  }

  private static String dep(String artifact, String tail) {
    return "<dependency><groupId>org.jdvm</groupId><artifactId>"
        + artifact
        + "</artifactId>"
        + tail
        + "</dependency>";
  }

  /** Module → the modules its README allows; every module has such a line. */
  static Map<String, Set<String>> allowed() throws IOException {
    Map<String, Set<String>> out = new TreeMap<>();
    for (String module : Sources.byModule().keySet()) {
      Path readme = Sources.ROOT.resolve(module).resolve("README.md");
      assertThat(readme).as(module + " has a README").isRegularFile();
      Matcher line = MAY_IMPORT.matcher(Files.readString(readme));
      assertThat(line.find())
          .as(readme + " says what it may import (**May import:** ...)")
          .isTrue();
      Set<String> modules = new TreeSet<>();
      Matcher m = MODULE.matcher(line.group(1));
      while (m.find()) {
        modules.add(m.group(1));
      }
      out.put(module, modules);
    }
    return out;
  }
}
