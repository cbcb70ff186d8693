package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.Change;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.server.remote.PeerIdentity;
import org.jdvm.server.remote.PmixRelay;
import org.jdvm.server.remote.RelayChannel;
import org.jdvm.server.remote.RelayHost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agents' PMIx relay (docs/protocol.md "Node agents") in front of a real DVM of two nodes
 * of two slots: each node's processes get the URI of that node's relay, which authenticates them on
 * its host and carries their frames over an in-memory link ({@link MemoryLink}) to the controller's
 * endpoint. Real libpmix 4.2.2 clients and an Open MPI 4.1 program wire up through the two relays:
 * commit, fence with data, get across nodes, publish/lookup, connect. An agent vouching for a
 * process of another node is refused. Without gcc, libpmix-dev or mpicc the tests that need them
 * are skipped, saying why; the DVM's teardown checks, by pid, that no process is left.
 */
class RelayTest {
  @TempDir static Path bin;
  @TempDir static Path home;

  private static String noPmix;
  private static String noMpi;
  private static TestDvm dvm;
  private static JdvmClient tool;
  private static final List<Agent> agents = new ArrayList<>();

  /** One node's agent, as far as the relay goes: its link, its relay, the controller's end. */
  private record Agent(String node, MemoryLink link, PmixRelay relay, RelayHost host) {}

  @BeforeAll
  static void start() throws Exception {
    noPmix =
        WireupPrograms.build(
            bin,
            "pmix_put_get",
            "pmix_fence_collect",
            "pmix_fence_dead",
            "pmix_pubsub",
            "pmix_connect");
    noMpi = WireupPrograms.build(bin, "mpi_allreduce");
    dvm = TestDvm.start(home, 2, 2, 0);
    for (String node : dvm.nodeNames()) {
      MemoryLink link = new MemoryLink();
      RelayHost host = RelayHost.serve(dvm.endpoint, node, link.controller);
      PmixRelay relay =
          PmixRelay.open(
              new PmixRelay.Config(
                  dvm.endpoint.dvmName(),
                  dvm.credentials,
                  (proc, timeoutMs) -> pidOn(node, proc, timeoutMs),
                  p -> dvm.env.jobDirectories().create(p.nspace(), p.rank()),
                  null,
                  true),
              link.agent,
              link.agent::opened);
      dvm.env.serverUriOn(node, relay.uri());
      agents.add(new Agent(node, link, relay, host));
    }
    // what an agent learns from its own launches: which of its processes ended, which jobs did
    dvm.endpoint.observe(
        o -> {
          for (Change c : o.changes()) {
            for (Agent a : agents) {
              if (c instanceof Change.ProcsEnded e) {
                a.relay().procsEnded(e.namespace(), e.ranks());
              } else if (c instanceof Change.JobTerminated t) {
                a.relay().jobEnded(t.namespace());
              }
            }
          }
        });
    tool = dvm.tool();
  }

  @AfterAll
  static void stop() {
    for (Agent a : agents) {
      a.relay().close();
      a.host().close();
      a.link().close();
    }
    if (dvm != null) {
      dvm.close();
    }
  }

  /** The pid of a process the agent of {@code node} runs, as an agent knows its own launches. */
  private static long pidOn(String node, Proc proc, long timeoutMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (true) {
      Optional<ProcView> p =
          dvm.read(
              v ->
                  v.job(proc.nspace())
                      .flatMap(
                          j ->
                              j.procs().stream().filter(r -> r.rank() == proc.rank()).findFirst()));
      if (p.isEmpty() || !p.get().node().equals(node)) {
        return -1;
      }
      if (p.get().pid() > 0) {
        return p.get().pid();
      }
      if (System.nanoTime() > deadline) {
        return 0;
      }
      Thread.onSpinWait();
    }
  }

  private static long relayed() {
    return agents.stream().mapToLong(a -> a.link().opened.get()).sum();
  }

  /** Runs a job of {@code np} ranks of a program to its end; every line its processes wrote. */
  private static List<String> job(int np, String... argv) throws Exception {
    return job(np, false, 0, argv);
  }

  private static List<String> job(int np, boolean recoverable, int exitCode, String... argv)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(argv));
    cmd.set(0, bin.resolve(argv[0]).toString());
    TestDvm.Output out = new TestDvm.Output();
    JdvmClient tool = dvm.tool(out);
    Job job =
        tool.spawn(
            SpawnRequest.of(cmd).procs(np).recoverable(recoverable).notifyCompletion(true).build());
    JobEnd end = job.end().get(90, TimeUnit.SECONDS);
    List<String> lines = WireupPrograms.lines(out);
    assertThat(end.exitCode()).as(String.join("\n", lines)).isEqualTo(exitCode);
    nodes = dvm.nodesOf(job.nspace()).size();
    return lines;
  }

  private static int nodes;

  @Test
  void libpmixRanksOnTwoAgentsCommitFenceWithDataAndGetEachOthersData() throws Exception {
    assumeTrue(noPmix == null, noPmix);
    long before = relayed();
    long entries = nodeEntries();
    List<String> putGet = job(4, "pmix_put_get");
    assertThat(nodes).as("ranks on both nodes").isEqualTo(2);
    assertThat(putGet).filteredOn(l -> l.startsWith("OK pmix_put_get")).hasSize(4 * 18);
    assertThat(putGet)
        .anyMatch(l -> l.contains("get peer=1 node=same key=wireup.remote expect=NOT-FOUND"))
        .anyMatch(l -> l.contains("get peer=2 node=other key=wireup.local expect=NOT-FOUND"));
    List<String> collect = job(4, "pmix_fence_collect", "5000");
    assertThat(collect).filteredOn(l -> l.startsWith("OK pmix_fence_collect")).hasSize(4 * 12);
    assertThat(collect).filteredOn(l -> l.contains("fence collect=1 procs=4 SUCCESS")).hasSize(4);
    assertThat(collect).noneMatch(l -> l.startsWith("FAIL") || l.startsWith("TIMEOUT"));
    assertThat(relayed() - before).as("every rank came through its node's relay").isEqualTo(8);
    assertThat(nodeEntries() - entries)
        .as("each of the three fences entered the controller once per node")
        .isEqualTo(3 * 2);
  }

  @Test
  void aGatheredFenceWhoseLocalParticipantLeavesEndsInPartialSuccessForTheOthers()
      throws Exception {
    assumeTrue(noPmix == null, noPmix);
    for (String mode : List.of("finalize", "kill")) {
      boolean killed = mode.equals("kill");
      List<String> lines = job(4, killed, killed ? 128 + 9 : 0, "pmix_fence_dead", mode, "5");
      assertThat(lines)
          .as(mode)
          .filteredOn(l -> l.startsWith("OK pmix_fence_dead") && l.contains("PARTIAL SUCCESS"))
          .hasSize(3);
    }
  }

  /** Node entries the relays sent the controller for gathered fences. */
  private static long nodeEntries() {
    return agents.stream().mapToLong(a -> a.relay().fenceCounts()[1]).sum();
  }

  @Test
  void publishLookupAndConnectAcrossNamespacesGoThroughTheRelays() throws Exception {
    assumeTrue(noPmix == null, noPmix);
    long before = relayed();
    List<String> pubsub = job(1, "pmix_pubsub");
    assertThat(pubsub)
        .anyMatch(l -> l.contains("child lookup wireup.ping SUCCESS"))
        .anyMatch(l -> l.contains("lookup wireup.ping after unpublish NOT-FOUND"));
    List<String> connect = job(1, "pmix_connect", "2");
    assertThat(connect).noneMatch(l -> l.startsWith("FAIL") || l.startsWith("TIMEOUT"));
    assertThat(connect).filteredOn(l -> l.startsWith("OK pmix_connect")).isNotEmpty();
    assertThat(relayed() - before).as("parents and children, each through a relay").isEqualTo(5);
  }

  @Test
  void anMpiProgramWiresUpAcrossTwoAgentsAndReducesOverEveryRank() throws Exception {
    assumeTrue(noMpi == null, noMpi);
    long before = relayed();
    List<String> lines = job(4, "mpi_allreduce");
    for (int rank = 0; rank < 4; rank++) {
      assertThat(lines).contains("OK mpi_allreduce rank=" + rank + " size=4 sum=10");
    }
    assertThat(relayed() - before).isEqualTo(4);
  }

  @Test
  void anAgentVouchingForAProcessOfAnotherNodeIsRefusedAndOneOfItsOwnIsAdmitted() throws Exception {
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").procs(2).notifyCompletion(true).build());
    try {
      List<ProcView> procs = awaitPids(job.nspace(), 2);
      ProcView p = procs.get(0);
      String otherNode =
          dvm.nodeNames().stream().filter(n -> !n.equals(p.node())).findFirst().get();
      PeerIdentity who =
          new PeerIdentity(
              PeerIdentity.Kind.CLIENT,
              new Proc(job.nspace(), p.rank()),
              -1,
              -1,
              p.pid(),
              WireFormat.V41);
      assertThat(vouch(otherNode, who)).as("vouched for by the agent of " + otherNode).isNull();
      byte[] reply = vouch(p.node(), who);
      assertThat(reply).as("vouched for by its own node's agent").isNotNull();
      assertThat(ClientConnectReply.decode(reply).isAccepted()).isTrue();
    } finally {
      tool.terminate(job.nspace());
      job.end().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * What the controller answers an agent of {@code node} that vouches for {@code who}: the
   * handshake reply, or {@code null} when it closed the peer.
   */
  private static byte[] vouch(String node, PeerIdentity who) throws Exception {
    LinkedBlockingQueue<Optional<byte[]>> answers = new LinkedBlockingQueue<>();
    try (MemoryLink link = new MemoryLink()) {
      link.agent.onReceive(
          new RelayChannel.RelayListener() {
            @Override
            public void opened(long id, byte[] peerIdentity) {}

            @Override
            public void frame(long id, byte[] frame) {
              answers.add(Optional.of(frame));
            }

            @Override
            public void closed(long id) {
              answers.add(Optional.empty());
            }
          });
      try (RelayHost host = RelayHost.serve(dvm.endpoint, node, link.controller)) {
        link.agent.opened(7, who.encode());
        Optional<byte[]> answer = answers.poll(20, TimeUnit.SECONDS);
        assertThat(answer).as("an answer to the vouch").isNotNull();
        return answer.orElse(null);
      }
    }
  }

  private static List<ProcView> awaitPids(String nspace, int n) {
    List<List<ProcView>> seen = new ArrayList<>();
    TestDvm.await(
        () -> {
          List<? extends ProcView> procs =
              dvm.read(
                  v ->
                      v.job(nspace)
                          .map(j -> j.procs().stream().filter(x -> x.pid() > 0).toList())
                          .orElse(List.of()));
          seen.add(List.copyOf(procs));
          return procs.size() == n;
        },
        "the pids of " + nspace);
    return seen.getLast();
  }
}
