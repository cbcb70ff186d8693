package org.jdvm.server.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.core.Change;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.MapBy;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;

/**
 * A core whose every command is journaled as the controller journals it (record, commit,
 * dispatched), for the recovery tests of state the core keeps: they drive it, close it, and read
 * the directory back with {@link RecoveredJournal#read}.
 */
final class JournaledCore implements AutoCloseable {
  final Core core;
  private final Journal journal;
  private long request;

  /** A fresh core and journal in {@code dir}, snapshotting past {@code snapshotBytes}. */
  JournaledCore(Path dir, CoreConfig config, long snapshotBytes) throws IOException {
    core = new Core(config);
    journal =
        new Journal(
            dir,
            FsyncPolicy.NEVER,
            Long.MAX_VALUE,
            snapshotBytes,
            core,
            config,
            RecoveredJournal.fresh(config));
  }

  Outcome run(Command c, long nowNs) {
    Outcome o = core.handle(c, nowNs);
    journal.record(c, o, nowNs);
    journal.commit();
    journal.dispatched();
    return o;
  }

  /** A tool registered; its namespace. */
  String registerTool(long nowNs) {
    Outcome reg = run(new Request.RegisterTool(new RequestId(++request), null), nowNs);
    return ((Change.NamespaceRegistered) reg.changes().get(0)).namespace();
  }

  /** {@code app} spawned by rank 0 of {@code tool}, mapped by slot. */
  Outcome spawn(String tool, App app, long nowNs) {
    return run(
        new Request.Spawn(
            new RequestId(++request),
            new Proc(tool, 0),
            List.of(app),
            null,
            null,
            null,
            null,
            MapBy.SLOT),
        nowNs);
  }

  /** Enough journal bytes for a snapshot when the threshold is 1 KiB. */
  void padForASnapshot(long nowNs) {
    for (int i = 0; i < 40; i++) {
      registerTool(nowNs);
    }
  }

  /** With a threshold of 1 KiB, a snapshot was written in {@code dir}. */
  static void assertSnapshotWhenSmall(Path dir, long snapshotBytes) throws IOException {
    if (snapshotBytes == 1024) {
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files.map(f -> f.getFileName().toString()))
            .anyMatch(n -> n.startsWith("snapshot-"));
      }
    }
  }

  @Override
  public void close() {
    journal.close();
  }
}
