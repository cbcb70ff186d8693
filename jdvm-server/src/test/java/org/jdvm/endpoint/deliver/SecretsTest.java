package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.MapBy;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.host.LogCapture;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.server.controller.CommandLog;
import org.junit.jupiter.api.Test;

/** A job's environment values never reach the log or the operator feed; its variable names do. */
class SecretsTest {
  private static final App APP =
      new App(
          "id",
          List.of("id"),
          List.of("DB_PASSWORD=hunter2", "MY_API_TOKEN=tok-123"),
          null,
          1,
          List.of(
              Info.of(
                  "pmix.envar.set",
                  new Value(
                      org.jdvm.pmix.DataType.ENVAR,
                      new Envar("OTHER_SECRET", "s3cr3t", (byte) 58)))));

  @Test
  void theOperatorFeedShowsTheEnvironmentsNamesButNotItsValues() {
    Change spawned =
        new Change.JobSpawned(
            "job@1",
            "tool@1",
            new Proc("tool@1", 0),
            new RequestId(1),
            List.of(),
            List.of(),
            List.of(APP),
            MapBy.SLOT,
            false,
            null,
            null);
    for (String shown : List.of(ChangeFeed.line(spawned), ChangeFeed.json(spawned))) {
      assertThat(shown).contains("DB_PASSWORD", "MY_API_TOKEN", "OTHER_SECRET");
      assertThat(shown).doesNotContain("hunter2", "tok-123", "s3cr3t");
    }
  }

  @Test
  void theCommandLogNamesTheEnvironmentsVariablesButNotTheirValues() {
    List<String> lines;
    try (LogCapture log =
        LogCapture.of("org.jdvm.server.controller", java.util.logging.Level.INFO)) {
      Request.Spawn spawn = Request.Spawn.of(new RequestId(2), new Proc("tool@1", 0), List.of(APP));
      CommandLog.handled(spawn, new Outcome(List.of(), List.of(), null, Outcome.NO_DEADLINE), 1000);
      lines = log.lines();
    }
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).contains("DB_PASSWORD").doesNotContain("hunter2", "tok-123", "s3cr3t");
  }
}
