package org.jdvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.core.Change;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.host.Await;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Proc;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure no DVM thread can go on after ends the DVM at once and visibly, never leaving a zombie
 * that holds its directory and refuses every client (architecture.md §1).
 */
class DvmServerFailureTest {
  @TempDir Path home;

  @Test
  void anErrorOnTheControllerThreadStopsTheDvmEndsItsJobsAndRemovesItsContactFile()
      throws Exception {
    DvmServer server = DvmServer.start(DvmConfig.embedded("fatal", 1, 2, 0, home));
    Set<Long> pids = ConcurrentHashMap.newKeySet();
    try {
      server
          .endpoint()
          .observe(
              o -> {
                for (Change c : o.changes()) {
                  if (c instanceof Change.ProcsStarted s) {
                    s.procs().forEach(p -> pids.add(p.pid()));
                  }
                }
              });
      Dvm dvm = server.dvm();
      dvm.submit(new Request.RegisterTool(new RequestId(1L << 40), "fataltool")).join();
      App sleep = new App("sleep", List.of("sleep", "600"), List.of(), null, 1, List.of());
      dvm.submit(
              Request.Spawn.of(
                  new RequestId((1L << 40) + 1), new Proc("fataltool", 0), List.of(sleep)))
          .join();
      Await.until(() -> !pids.isEmpty(), "the job's process to start");
      assertThat(Files.exists(home.resolve(DvmHome.CONTACT))).isTrue();

      dvm.read(
          v -> {
            throw new OutOfMemoryError("injected by the test");
          });

      Await.until(() -> awaitStop(server), "the DVM to stop");
      assertThat(server.failure()).isInstanceOf(OutOfMemoryError.class);
      assertThat(Files.exists(home.resolve(DvmHome.CONTACT))).isFalse();
      Await.until(
          () -> pids.stream().noneMatch(p -> ProcessHandle.of(p).isPresent()),
          "the job's processes to end");
    } finally {
      server.close();
      pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
    }
  }

  private static boolean awaitStop(DvmServer server) {
    try {
      return server.awaitStop(100);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
