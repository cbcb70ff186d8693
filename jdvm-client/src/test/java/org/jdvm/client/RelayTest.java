package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jdvm.agent.link.RelayChannel;
import org.jdvm.agent.relay.PeerIdentity;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.ClientConnectReply;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.ConnectFlag;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.server.agents.RelayHost;
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
  private static RelayedNodes relays;

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
    relays = RelayedNodes.attach(dvm, true);
    tool = dvm.tool();
  }

  @AfterAll
  static void stop() {
    if (relays != null) {
      relays.close();
    }
    if (dvm != null) {
      dvm.close();
    }
  }

  private static long relayed() {
    return relays.relayed();
  }

  private static long nodeEntries() {
    return relays.nodeEntries();
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
    long gets = relays.getsAnswered();
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
    assertThat(relays.getsAnswered() - gets)
        .as("gets of same-node data, at the agents")
        .isPositive();
  }

  @Test
  void aSecondGetOfAnotherNodesRankOnOneNodeIsAnsweredByItsAgentWithTheSameValue()
      throws Exception {
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").procs(4).mapBy("slot").build());
    List<JdvmClient> ranks = new ArrayList<>();
    try {
      for (int r = 0; r < 4; r++) {
        ranks.add(rankThroughItsRelay(job.nspace(), r));
      }
      Proc target = new Proc(job.nspace(), 3);
      String nodeOf3 = nodeOf(target);
      List<Integer> here =
          List.of(0, 1, 2).stream()
              .filter(r -> !nodeOf(new Proc(job.nspace(), r)).equals(nodeOf3))
              .toList();
      assertThat(here).as("two ranks on the other node").hasSize(2);
      WireUp three = ranks.get(3).wireUp();
      three.put(WireUp.Scope.GLOBAL, "relay.k", Value.string("three"));
      three.commit();
      long cached = relays.getsFromCache();
      assertThat(ranks.get(here.get(0)).wireUp().get(target, "relay.k").asString())
          .isEqualTo("three");
      assertThat(relays.getsFromCache())
          .as("the first get goes to the controller")
          .isEqualTo(cached);
      assertThat(ranks.get(here.get(1)).wireUp().get(target, "relay.k").asString())
          .isEqualTo("three");
      assertThat(relays.getsFromCache() - cached)
          .as("the second, on the same node, is answered by its agent")
          .isEqualTo(1);
    } finally {
      ranks.forEach(JdvmClient::close);
      tool.terminate(job.nspace());
      job.end().get(30, TimeUnit.SECONDS);
    }
  }

  /** A Java PMIx client connected as {@code nspace.rank} to the relay of the node it runs on. */
  private static JdvmClient rankThroughItsRelay(String nspace, int rank) throws Exception {
    Proc p = new Proc(nspace, rank);
    String node = nodeOf(p);
    RelayedNodes.Agent agent =
        relays.agents.stream().filter(a -> a.node().equals(node)).findFirst().orElseThrow();
    return JdvmClient.connector()
        .dvm(agent.relay().uri())
        .asProcess(p, dvm.credentials.procCredential(nspace, rank))
        .output(OutputHandler.DISCARD)
        .connect();
  }

  private static String nodeOf(Proc p) {
    return dvm.read(
        v ->
            v.job(p.nspace()).orElseThrow().procs().stream()
                .filter(x -> x.rank() == p.rank())
                .findFirst()
                .orElseThrow()
                .node());
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

  /** What the controller answers an agent of {@code node} that vouches for {@code who}. */
  private static byte[] vouch(String node, PeerIdentity who) throws Exception {
    try (FakeAgent agent = new FakeAgent(node)) {
      return agent.open(7, who);
    }
  }

  @Test
  void anAgentEntersAFenceOnlyForProcessesOfItsOwnNodeAndAProcessForNobodyElse() throws Exception {
    Job job = tool.spawn(SpawnRequest.of("sleep", "60").procs(4).notifyCompletion(true).build());
    try {
      List<ProcView> procs = awaitPids(job.nspace(), 4);
      ProcView me = procs.stream().filter(p -> p.rank() == 0).findFirst().orElseThrow();
      ProcView neighbour =
          procs.stream()
              .filter(p -> p.rank() != 0 && p.node().equals(me.node()))
              .findFirst()
              .orElseThrow();
      ProcView remote =
          procs.stream().filter(p -> !p.node().equals(me.node())).findFirst().orElseThrow();
      Proc self = new Proc(job.nspace(), 0);
      try (FakeAgent agent = new FakeAgent(me.node())) {
        byte[] reply =
            agent.open(
                1,
                new PeerIdentity(PeerIdentity.Kind.CLIENT, self, -1, -1, me.pid(), WireFormat.V41));
        assertThat(ClientConnectReply.decode(reply).isAccepted()).isTrue();
        agent.send(1, fenceFor(5, String.valueOf(remote.rank())));
        assertThat(agent.status()).isEqualTo(PmixStatus.ERR_NO_PERMISSIONS);
      }
      Wire direct =
          Wire.open(
              dvm.contact(),
              ConnectFlag.SIMPLE_CLIENT,
              self,
              List.of(
                  Info.of(
                      JdvmProtocol.CREDENTIAL,
                      Value.string(dvm.credentials.procCredential(self.nspace(), 0)))),
              WireFormat.V41);
      try {
        direct.start(
            new Wire.Listener() {
              @Override
              public void event(Unpacker body) {}

              @Override
              public void output(Unpacker body) {}

              @Override
              public void lost(PmixException why) {}
            });
        byte[] body = fenceFor(0, String.valueOf(neighbour.rank()));
        byte[] bare = java.util.Arrays.copyOfRange(body, FrameHeader.BYTES, body.length);
        assertThat(direct.call(bare, Unpacker::unpackStatus).get(20, TimeUnit.SECONDS))
            .as("a process's own jdvm.fence.for")
            .isEqualTo(PmixStatus.ERR_BAD_PARAM);
      } finally {
        direct.close();
      }
    } finally {
      tool.terminate(job.nspace());
      job.end().get(30, TimeUnit.SECONDS);
    }
  }

  /** A FENCENB over the caller's namespace naming {@code ranks} in {@code jdvm.fence.for}. */
  private static byte[] fenceFor(int tag, String ranks) {
    byte[] body =
        new Packer(WireFormat.V41)
            .packCommand(Commands.FENCENB_CMD)
            .packSize(0)
            .packInfos(List.of(Info.of(JdvmProtocol.FENCE_FOR, Value.string(ranks))))
            .toByteArray();
    byte[] frame = new byte[FrameHeader.BYTES + body.length];
    FrameHeader.of(0, tag, body.length).encode(frame, 0);
    System.arraycopy(body, 0, frame, FrameHeader.BYTES, body.length);
    return frame;
  }

  /** An agent of a node as the controller sees it: a link on which it vouches and sends frames. */
  private static final class FakeAgent implements AutoCloseable {
    private final MemoryLink link = new MemoryLink();
    private final LinkedBlockingQueue<Optional<byte[]>> answers = new LinkedBlockingQueue<>();
    private final RelayHost host;

    FakeAgent(String node) {
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
      host = RelayHost.serve(dvm.endpoint, node, link.controller);
    }

    /** Vouches for {@code who}: the handshake reply, or {@code null} when the controller closed. */
    byte[] open(long id, PeerIdentity who) throws InterruptedException {
      link.agent.opened(id, who.encode());
      return next().orElse(null);
    }

    void send(long id, byte[] frame) {
      link.agent.send(id, frame);
    }

    /** The status a reply frame starts with. */
    int status() throws InterruptedException {
      byte[] frame = next().orElseThrow(() -> new AssertionError("closed instead of a reply"));
      return new Unpacker(
              WireFormat.V41, frame, FrameHeader.BYTES, frame.length - FrameHeader.BYTES)
          .unpackStatus();
    }

    private Optional<byte[]> next() throws InterruptedException {
      Optional<byte[]> answer = answers.poll(20, TimeUnit.SECONDS);
      assertThat(answer).as("an answer from the controller").isNotNull();
      return answer;
    }

    @Override
    public void close() {
      host.close();
      link.close();
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
