package org.jdvm.server.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;

/**
 * The environment directives as the launch applies them ({@link EnvRules}; docs/cli.md
 * "Environment, working directory, time limit"), each kind, in order, and jdvm's own variables over
 * them ({@link LaunchEnvironment}).
 */
class EnvRulesTest {
  private static Info rule(String key, String name, String value, char sep) {
    return Info.of(key, new Value(DataType.ENVAR, new Envar(name, value, (byte) sep)));
  }

  @Test
  void eachKindInOrder() {
    Map<String, String> env = new HashMap<>(Map.of("KEPT", "old", "P", "/b:/a", "GONE", "x"));
    EnvRules.apply(
        env,
        List.of(
            rule(PmixKeys.ADD_ENVAR, "KEPT", "new", '\0'),
            rule(PmixKeys.ADD_ENVAR, "ADDED", "new", '\0'),
            rule(PmixKeys.PREPEND_ENVAR, "EMPTY", "v", ':'),
            rule(PmixKeys.APPEND_ENVAR, "P", "/c", ':'),
            rule(PmixKeys.FIRST_ENVAR, "P", "/a", ':'),
            Info.of(PmixKeys.UNSET_ENVAR, Value.string("GONE")),
            Info.of(PmixKeys.WDIR, Value.string("/not/a/directive")),
            rule(PmixKeys.SET_ENVAR, "S", "1", '\0'),
            rule(PmixKeys.PREPEND_ENVAR, "S", "0", ',')));
    assertThat(env)
        .containsEntry("KEPT", "old")
        .containsEntry("ADDED", "new")
        .containsEntry("EMPTY", "v")
        .containsEntry("P", "/a:/b:/c")
        .containsEntry("S", "0,1")
        .doesNotContainKey("GONE")
        .hasSize(5);
  }

  @Test
  void jdvmsOwnVariablesAreSetAfterTheDirectives() {
    LaunchEnvironment launch =
        new LaunchEnvironment(
            Map.of(),
            "jdvm@1.0;tcp4://127.0.0.1:1",
            "contact",
            "/tmp",
            org.jdvm.host.identity.Credentials.generate());
    Map<String, String> env =
        launch.of(
            "jdvm@2",
            0,
            "node0",
            List.of(),
            List.of(rule(PmixKeys.SET_ENVAR, "PMIX_RANK", "9", '\0')),
            List.of());
    assertThat(env).containsEntry("PMIX_RANK", "0");
  }
}
