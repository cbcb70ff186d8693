package org.jdvm.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jdvm.agent.link.LinkMessage;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.assembly.DvmServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output back-pressure end to end for a job on a node agent (docs/ARCHITECTURE.md "Output
 * back-pressure"): as {@link OutputBackPressureTest}, but the job runs on an agent (in this JVM, on
 * loopback) and its output crosses the agent link: a {@code jdvm run} stopped with SIGSTOP is not
 * cut off, the controller holds at most its high-water mark plus the link's window (and a chunk or
 * two) for it, and once it is continued every byte arrives, in order.
 */
class RemoteOutputBackPressureTest {
  @TempDir static Path dir;
  private static DvmServer server;
  private static Set<Long> jobPids;
  private Process run;

  @BeforeAll
  static void startDvm() throws Exception {
    RemoteHosts remote =
        new RemoteHosts(
            HostList.parseHosts("a1:2"),
            new InJvmAgents(),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            List.of("jdvm"),
            new AgentHub.Settings(250, 8),
            60_000,
            line -> {});
    server =
        DvmServer.start(
            DvmConfig.embedded("rbp", 1, 1, 0, dir).withScheduler(DvmConfig.SchedulerKind.NONE),
            remote);
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
    long most =
        StoppedReader.stopWhileItWrites(
            server,
            dir,
            jobPids,
            Connection.OUTPUT_HIGH_WATER + LinkMessage.OutputCredit.WINDOW_BYTES + (128 << 10),
            p -> run = p);
    System.err.println("the controller held at most " + most + " bytes for the stopped reader");
  }
}
