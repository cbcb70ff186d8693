package org.jdvm.cli;

import java.nio.file.Path;
import java.util.Set;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output back-pressure end to end (docs/ARCHITECTURE.md "Output back-pressure"): a {@code jdvm run}
 * stopped with SIGSTOP (as a terminal's Ctrl-Z does) while its job writes far more than any buffer
 * holds is not cut off; the DVM holds no more than its high-water mark of the job's output for it
 * meanwhile (the job blocks on its full pipe), and once it is continued every byte arrives, in
 * order ({@link StoppedReader}).
 */
class OutputBackPressureTest {
  @TempDir static Path dir;
  private static DvmServer server;
  private static Set<Long> jobPids;
  private Process run;

  @BeforeAll
  static void startDvm() throws Exception {
    server = DvmServer.start(DvmConfig.embedded("backpressure", 1, 2, 0, dir));
    jobPids = StoppedReader.watchJobPids(server);
  }

  @AfterAll
  static void stopDvm() {
    server.close();
  }

  @AfterEach
  void endWhatThisTestStarted() throws Exception {
    StoppedReader.end(run, jobPids);
  }

  @Test
  void aStoppedRunIsPacedNotCutOffAndLosesNothing() throws Exception {
    StoppedReader.stopWhileItWrites(
        server, dir, jobPids, Connection.OUTPUT_HIGH_WATER + (1 << 20), p -> run = p);
  }
}
