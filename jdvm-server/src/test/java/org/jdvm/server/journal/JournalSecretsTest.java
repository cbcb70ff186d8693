package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/journal.md "Files": a job's environment values reach its processes but neither a journal
 * segment nor a snapshot — recovery never needs them (launches are not sent again) — while the
 * names stay, and the recovered state is the live one.
 */
class JournalSecretsTest {
  private static final CoreConfig CONFIG = CoreConfig.of("js", List.of(new NodeSpec("n0", 4)));
  private static final String SECRET = "hunter2-s3cr3t";

  @TempDir Path dir;

  @Test
  void environmentValuesAreLaunchedButNeverWrittenToTheJournalOrASnapshot() throws Exception {
    Core core = new Core(CONFIG);
    Outcome launched;
    try (Journal j =
        new Journal(
            dir, FsyncPolicy.NEVER, Long.MAX_VALUE, core, CONFIG, RecoveredJournal.fresh(CONFIG))) {
      Outcome reg = core.handle(new Request.RegisterTool(new RequestId(1), null), 0);
      j.record(null, reg, 0);
      String tool = ((Change.NamespaceRegistered) reg.changes().get(0)).namespace();
      App app =
          new App(
              "/bin/true", List.of("/bin/true"), List.of("TOKEN=" + SECRET), null, 1, List.of());
      Request.Spawn spawn = Request.Spawn.of(new RequestId(2), new Proc(tool, 0), List.of(app));
      launched = core.handle(spawn, 0);
      j.record(spawn, launched, 0);
      j.commit();
      j.dispatched();
      j.snapshot();
    }
    assertThat(launched.effects())
        .as("the launch has the value")
        .anySatisfy(
            e ->
                assertThat(((Effect.LaunchProcs) e).procs().get(0).app().env())
                    .containsExactly("TOKEN=" + SECRET));
    Thread.sleep(200); // the snapshot is written in the background; close waited for it
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> all = files.filter(f -> !f.getFileName().toString().equals("reserve")).toList();
      assertThat(all).anyMatch(f -> f.getFileName().toString().startsWith("snapshot-"));
      int named = 0;
      for (Path f : all) {
        String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        assertThat(text).as("%s", f.getFileName()).doesNotContain(SECRET);
        named += text.contains("TOKEN") ? 1 : 0;
      }
      assertThat(named).as("the segment and the snapshot name the variable").isEqualTo(2);
    }
    assertThat(RecoveredJournal.read(dir, CONFIG).core().digest()).isEqualTo(core.digest());
  }
}
