package org.jdvm.agent.link;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.jdvm.agent.AgentDaemon;
import org.jdvm.core.ProcEnd;
import org.jdvm.host.LaunchException;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.LogCapture;
import org.jdvm.host.NodeEvents;
import org.jdvm.host.ProcListener;
import org.jdvm.host.identity.Credentials;
import org.jdvm.server.agents.AgentHub;
import org.jdvm.server.agents.AgentStarter;
import org.jdvm.server.agents.HostList;
import org.jdvm.server.agents.HostStart;
import org.jdvm.server.agents.NodeState;
import org.jdvm.server.agents.RemoteHosts;
import org.jdvm.server.agents.RemoteNodeAgent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A controller's hub and real agent daemons on loopback: joining, launching, output, exits,
 * signals, stdin, refusals, heartbeats, and the two ways back after a broken link.
 */
class AgentLinkTest {
  private final Credentials credentials = Credentials.generate();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final List<Long> pids = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();

  private final NodeEvents sink =
      new NodeEvents() {
        @Override
        public void output(
            String node, String nspace, int rank, ProcListener.Stream s, byte[] chunk) {
          events.add(node + " " + nspace + "." + rank + " " + s + " " + new String(chunk).strip());
        }

        @Override
        public void exited(String node, String nspace, int rank, int code, int signal) {
          events.add(
              node
                  + " "
                  + nspace
                  + "."
                  + rank
                  + (signal != 0 ? " killed by " + signal : " exited " + code));
        }

        @Override
        public void exited(String node, String nspace, int rank, int status) {
          events.add(node + " " + nspace + "." + rank + " exited " + status);
        }
      };

  @AfterEach
  void cleanUp() throws Exception {
    for (long pid : pids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    for (AutoCloseable c : toClose.reversed()) {
      c.close();
    }
  }

  private AgentHub hub(long heartbeatMillis, int missed) throws IOException {
    AgentHub hub =
        AgentHub.open(
            credentials,
            new AgentHub.Settings(heartbeatMillis, missed),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            System::nanoTime);
    toClose.add(hub);
    return hub;
  }

  private record Running(AgentDaemon daemon, Thread thread, AgentDaemon.Exit[] exit) {}

  private Running agent(AgentHub hub, String node, Credentials creds, long reconnectMillis) {
    return agent(hub, node, creds, reconnectMillis, AgentDaemon.NO_RELAY);
  }

  private Running agent(
      AgentHub hub,
      String node,
      Credentials creds,
      long reconnectMillis,
      java.util.function.Function<RelayPort, UnaryOperator<LaunchRequest>> relay) {
    AgentDaemon d =
        new AgentDaemon(
            new AgentDaemon.Options(hub.address(), node, "testhost", 2, reconnectMillis, relay),
            creds,
            System::nanoTime);
    AgentDaemon.Exit[] exit = new AgentDaemon.Exit[1];
    Thread t = Thread.ofPlatform().start(() -> exit[0] = d.run());
    toClose.add(
        () -> {
          d.stop();
          t.join(10_000);
        });
    return new Running(d, t, exit);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 15 s: " + what);
      }
      Thread.sleep(5);
    }
  }

  private long launch(RemoteNodeAgent a, String nspace, int rank, boolean stdin, String... argv)
      throws LaunchException {
    long pid = a.launch(nspace, rank, new LaunchRequest(List.of(argv), Map.of(), null, stdin));
    pids.add(pid);
    return pid;
  }

  @Test
  void anAgentJoinsRunsProcessesAndReportsTheirOutputAndExits() throws Exception {
    AgentHub hub = hub(200, 5);
    RemoteNodeAgent n1 = hub.expect("n1");
    n1.bind(sink);
    agent(hub, "n1", credentials, 5000);
    await("n1 up", () -> n1.state() == NodeState.UP);
    assertThat(n1.host()).isEqualTo("testhost");
    assertThat(n1.resources()).containsKey("cpus");

    launch(n1, "d@1", 0, false, "/bin/sh", "-c", "echo hello; echo oops >&2; exit 3");
    await("exit", () -> events.contains("n1 d@1.0 exited 3"));
    assertThat(events).contains("n1 d@1.0 STDOUT hello", "n1 d@1.0 STDERR oops");
    // Merged over the link: the agent gives the process one pipe, so stderr arrives as stdout.
    pids.add(
        n1.launch(
            "d@1",
            4,
            new LaunchRequest(
                List.of("/bin/sh", "-c", "echo oops >&2; exit 4"), Map.of(), null, false, true)));
    await("merged exit", () -> events.contains("n1 d@1.4 exited 4"));
    assertThat(events).contains("n1 d@1.4 STDOUT oops").doesNotContain("n1 d@1.4 STDERR oops");

    long sleeper = launch(n1, "d@1", 1, false, "/bin/sleep", "30");
    assertThat(n1.runningProcs()).isEqualTo(1);
    n1.signalProc("d@1", 1, 15);
    await("TERM", () -> events.contains("n1 d@1.1 killed by 15"));
    assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false)).isFalse();

    launch(n1, "d@1", 2, true, "/bin/cat");
    n1.writeStdin("d@1", 2, "piped\n".getBytes(), 1000).get(10, TimeUnit.SECONDS);
    n1.writeStdin("d@1", 2, new byte[0], 1000).get(10, TimeUnit.SECONDS);
    await("cat", () -> events.contains("n1 d@1.2 exited 0"));
    assertThat(events).contains("n1 d@1.2 STDOUT piped");
    assertThatThrownBy(() -> n1.writeStdin("d@1", 9, new byte[] {1}, 100).get(10, TimeUnit.SECONDS))
        .hasMessageContaining("not running");

    assertThatThrownBy(() -> launch(n1, "d@1", 3, false, "/no/such/program"))
        .isInstanceOf(LaunchException.class)
        .satisfies(
            e ->
                assertThat(((LaunchException) e).kind())
                    .isEqualTo(LaunchException.Kind.EXE_NOT_FOUND));
    assertThat(
            n1.registerCleanup(
                "d@1",
                new org.jdvm.host.Cleanup.Registration(
                    java.nio.file.Path.of("/etc/passwd"),
                    false,
                    false,
                    false,
                    false,
                    List.of(),
                    false)))
        .contains("outside");
  }

  @Test
  void aGrantsJoinLeavesNoJoinActionBehindWhetherItsAgentsJoinOrNot() throws Exception {
    AgentHub hub = hub(200, 5);
    int before = hub.joinActions();
    AgentStarter unreachable =
        (host, argv, secret) -> {
          throw new java.io.IOException("ssh: connect to host " + host + ": No route to host");
        };
    RemoteHosts grant =
        new RemoteHosts(
            List.of(new HostList.Host("g1", 1), new HostList.Host("g2", 1)),
            unreachable,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            List.of("jdvm"),
            new AgentHub.Settings(200, 5),
            2_000,
            line -> {});
    for (int i = 0; i < 3; i++) {
      Map<String, String> failed = HostStart.joinLater(hub, grant, credentials);
      assertThat(failed).containsOnlyKeys("g1", "g2");
      assertThat(failed.get("g1")).contains("No route to host");
    }
    assertThat(hub.joinActions()).isEqualTo(before);
  }

  @Test
  void aWrongSecretAnUnknownNodeAndAnotherVersionAreRefused() throws Exception {
    AgentHub hub = hub(200, 5);
    hub.expect("n1");
    Running wrong = agent(hub, "n1", Credentials.generate(), 1000);
    wrong.thread().join(15_000);
    assertThat(wrong.exit()[0]).isEqualTo(AgentDaemon.Exit.REFUSED);
    Running stranger = agent(hub, "n9", credentials, 1000);
    stranger.thread().join(15_000);
    assertThat(stranger.exit()[0]).isEqualTo(AgentDaemon.Exit.REFUSED);
    assertThat(hub.get("n1").state()).isEqualTo(NodeState.JOINING);

    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), hub.address().getPort())) {
      Link l = new Link(s, System::nanoTime, "test");
      LinkMessage.Challenge c = (LinkMessage.Challenge) l.readNow();
      sendHello(l, c, LinkMessage.VERSION + 1, credentials);
      assertThat(l.readNow()).isInstanceOf(LinkMessage.Refused.class);
    }
    // An agent of the version before (without OutputCredit) is refused as cleanly.
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), hub.address().getPort())) {
      Link l = new Link(s, System::nanoTime, "test");
      LinkMessage.Challenge c = (LinkMessage.Challenge) l.readNow();
      sendHello(l, c, LinkMessage.VERSION - 1, credentials);
      assertThat(l.readNow()).isInstanceOf(LinkMessage.Refused.class);
    }
  }

  /**
   * Another user's flood of hellos without the secret writes one log line, not one per attempt (one
   * line per episode, as the endpoint logs refusals: docs/protocol.md "Agent link"), and the count
   * once an agent joins.
   */
  @Test
  void aFloodOfHellosWithoutTheSecretLogsOneLinePerEpisode() throws Exception {
    try (LogCapture log = LogCapture.of("org.jdvm.server.remote", java.util.logging.Level.ALL)) {
      List<String> lines = log.lines();
      AgentHub hub = hub(200, 5);
      RemoteNodeAgent n1 = hub.expect("n1");
      n1.bind(sink);
      Credentials wrong = Credentials.generate();
      for (int i = 0; i < 40; i++) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), hub.address().getPort())) {
          s.setSoTimeout(15_000);
          Link l = new Link(s, System::nanoTime, "test");
          LinkMessage.Challenge c = (LinkMessage.Challenge) l.readNow();
          sendHello(l, c, LinkMessage.VERSION, wrong);
          assertThat(l.readNow()).isInstanceOf(LinkMessage.Refused.class);
        }
      }
      assertThat(lines.stream().filter(m -> m.contains("failed to prove the secret"))).hasSize(1);
      agent(hub, "n1", credentials, 5000);
      await("n1 up", () -> n1.state() == NodeState.UP);
      await(
          "the episode's count",
          () -> lines.stream().anyMatch(m -> m.endsWith("failed to prove the secret: 40")));
    }
  }

  @Test
  void aPeerThatProvedNothingCannotMakeTheControllerReadABigMessage() throws Exception {
    AgentHub hub = hub(200, 5);
    hub.expect("n1");
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), hub.address().getPort())) {
      s.setSoTimeout(15_000);
      Link l = new Link(s, System::nanoTime, "test");
      assertThat(l.readNow()).isInstanceOf(LinkMessage.Challenge.class);
      java.io.DataOutputStream out = new java.io.DataOutputStream(s.getOutputStream());
      out.writeInt(LinkCodec.MAX_HANDSHAKE_BYTES + 1);
      out.flush();
      assertThat(s.getInputStream().read()).isEqualTo(-1); // dropped, nothing buffered
    }
    assertThat(hub.get("n1").state()).isEqualTo(NodeState.JOINING);
  }

  @Test
  void aSilentAgentGoesSuspectThenDownIsReportedLostAndIsRefusedWhenItComesBack() throws Exception {
    AgentHub hub = hub(50, 4);
    List<String> lost = new CopyOnWriteArrayList<>();
    hub.onLost(lost::add);
    RemoteNodeAgent n1 = hub.expect("n1");
    List<NodeState> seen = new CopyOnWriteArrayList<>();
    // A hand-made agent that joins and then says nothing, its socket open: a host cut off.
    Socket s = new Socket(InetAddress.getLoopbackAddress(), hub.address().getPort());
    toClose.add(s);
    Link l = new Link(s, System::nanoTime, "test");
    LinkMessage.Challenge c = (LinkMessage.Challenge) l.readNow();
    sendHello(l, c, LinkMessage.VERSION, credentials);
    assertThat(l.readNow()).isInstanceOf(LinkMessage.Welcome.class);
    await(
        "down",
        () -> {
          seen.add(n1.state());
          return n1.state() == NodeState.DOWN;
        });
    assertThat(seen).contains(NodeState.SUSPECT);
    await("reported lost", () -> lost.equals(List.of("n1")));
    assertThatThrownBy(
            () -> n1.launch("d@1", 0, new LaunchRequest(List.of("/bin/true"), Map.of(), null)))
        .isInstanceOf(LaunchException.class)
        .satisfies(
            e ->
                assertThat(((LaunchException) e).kind()).isEqualTo(LaunchException.Kind.NODE_GONE));

    Running back = agent(hub, "n1", credentials, 1000);
    back.thread().join(15_000);
    assertThat(back.exit()[0]).isEqualTo(AgentDaemon.Exit.REFUSED);
  }

  @Test
  void anAgentWhoseLinkBrokeJoinsAgainAndKeepsWhatTheDvmStillCounts() throws Exception {
    AgentHub hub = hub(100, 20);
    RemoteNodeAgent n1 = hub.expect("n1");
    n1.bind(sink);
    List<RemoteNodeAgent> joins = new CopyOnWriteArrayList<>();
    hub.onJoined(joins::add);
    agent(hub, "n1", credentials, 10_000);
    await("up", () -> n1.state() == NodeState.UP);
    long pid = launch(n1, "d@1", 0, false, "/bin/sleep", "30");
    Link first = n1.link();
    first.close(); // the connection breaks; both sides still live
    await("joined again", () -> joins.size() == 2 && n1.link() != null && n1.link() != first);
    assertThat(n1.state()).isEqualTo(NodeState.UP);
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isTrue();
    assertThat(n1.runningProcs()).isEqualTo(1);
    n1.signalProc("d@1", 0, 9);
    await("killed after the rejoin", () -> events.contains("n1 d@1.0 killed by 9"));
  }

  /** What one side of the relay heard. */
  private static RelayChannel.RelayListener recorder(List<String> heard) {
    return new RelayChannel.RelayListener() {
      @Override
      public void opened(long id, byte[] identity) {
        heard.add("opened " + id + " " + new String(identity));
      }

      @Override
      public void frame(long id, byte[] frame) {
        heard.add("frame " + id + " " + new String(frame));
      }

      @Override
      public void closed(long id) {
        heard.add("closed " + id);
      }
    };
  }

  @Test
  void theRelayCarriesFramesBothWaysAcrossARejoinAndItsHookPreparesLaunches() throws Exception {
    AgentHub hub = hub(100, 20);
    RemoteNodeAgent n1 = hub.expect("n1");
    n1.bind(sink);
    List<String> atController = new CopyOnWriteArrayList<>();
    List<String> atAgent = new CopyOnWriteArrayList<>();
    n1.relay().onReceive(recorder(atController));
    RelayPort[] agentSide = new RelayPort[1];
    agent(
        hub,
        "n1",
        credentials,
        10_000,
        port -> {
          agentSide[0] = port;
          port.onReceive(recorder(atAgent));
          return r -> {
            Map<String, String> env = new java.util.HashMap<>(r.environment());
            env.put("RELAYED", "yes");
            return r.withEnvironment(env);
          };
        });
    // The controller may see the agent up before the agent's side has attached its link.
    await("up", () -> n1.state() == NodeState.UP && agentSide[0] != null && agentSide[0].isUp());
    agentSide[0].opened(7, "rank 0".getBytes());
    agentSide[0].send(7, "hello".getBytes());
    await("at the controller", () -> atController.size() == 2);
    n1.relay().send(7, "answer".getBytes());
    await("at the agent", () -> atAgent.contains("frame 7 answer"));
    assertThat(atController).containsExactly("opened 7 rank 0", "frame 7 hello");

    Link first = n1.link();
    first.close();
    await("joined again", () -> n1.link() != null && n1.link() != first && agentSide[0].isUp());
    agentSide[0].closed(7);
    n1.relay().send(8, "again".getBytes());
    await(
        "after the rejoin",
        () -> atController.contains("closed 7") && atAgent.contains("frame 8 again"));

    launch(n1, "d@1", 0, false, "/bin/sh", "-c", "echo relayed=$RELAYED");
    await("prepared", () -> events.contains("n1 d@1.0 STDOUT relayed=yes"));
  }

  @Test
  void closingTheHubEndsEveryProcessAndEveryAgent() throws Exception {
    AgentHub hub = hub(100, 5);
    RemoteNodeAgent n1 = hub.expect("n1");
    RemoteNodeAgent n2 = hub.expect("n2");
    n1.bind(sink);
    n2.bind(sink);
    Running a1 = agent(hub, "n1", credentials, 5000);
    Running a2 = agent(hub, "n2", credentials, 5000);
    await("up", () -> n1.state() == NodeState.UP && n2.state() == NodeState.UP);
    long p1 = launch(n1, "d@1", 0, false, "/bin/sleep", "30");
    long p2 = launch(n2, "d@1", 1, false, "/bin/sleep", "30");
    hub.close();
    a1.thread().join(15_000);
    a2.thread().join(15_000);
    assertThat(a1.exit()[0]).isEqualTo(AgentDaemon.Exit.BYE);
    assertThat(a2.exit()[0]).isEqualTo(AgentDaemon.Exit.BYE);
    await("gone", () -> ProcessHandle.of(p1).isEmpty() || !ProcessHandle.of(p1).get().isAlive());
    await("gone", () -> ProcessHandle.of(p2).isEmpty() || !ProcessHandle.of(p2).get().isAlive());
  }

  @Test
  void aRestartedControllerTakesTheAgentBackWithWhatStillRunsAndWhatEndedWhileItWasAway()
      throws Exception {
    AgentHub first = hub(200, 5);
    RemoteNodeAgent n1 = first.expect("n1");
    n1.bind(sink);
    Running agent = agent(first, "n1", credentials, 30_000);
    await("n1 up", () -> n1.state() == NodeState.UP);
    java.nio.file.Path go = java.nio.file.Files.createTempDirectory("rejoin").resolve("go");
    long stays = launch(n1, "d@1", 0, false, "/bin/sleep", "30");
    // Each waits for the go file, so that it ends while the controller is away.
    java.util.function.UnaryOperator<String> afterGo =
        then -> "while [ ! -e '" + go + "' ]; do sleep 0.02; done; " + then;
    long ends = launch(n1, "d@1", 1, false, "/bin/sh", "-c", afterGo.apply("echo bye; exit 7"));
    long segv = launch(n1, "d@1", 3, false, "/bin/sh", "-c", afterGo.apply("kill -SEGV $$"));
    long stranger = launch(n1, "d@2", 0, false, "/bin/sleep", "30");
    int port = first.address().getPort();

    first.abandon(); // the controller is killed
    await("the agent noticed", () -> agent.daemon().link() == null);
    java.nio.file.Files.createFile(go);
    try {
      await("ranks 1 and 3 ended meanwhile", () -> agent.daemon().heldExits().size() == 2);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + ": " + agent.daemon().heldExits(), e);
    }
    AgentHub second =
        AgentHub.openRejoining(
            credentials,
            new AgentHub.Settings(200, 5),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
            List.of("n1"),
            15_000,
            System::nanoTime);
    toClose.add(second);
    RemoteNodeAgent m1 = second.get("n1");
    m1.bind(sink);
    // The recovered state counts ranks 0, 1 and 3 of d@1, and a rank 2 the agent never ran; not
    // d@2.
    AgentHub.Rejoined back =
        second.rejoin(
            Map.of("n1", Map.of("d@1.0", stays, "d@1.1", ends, "d@1.2", 999_999L, "d@1.3", segv)));

    assertThat(back.missing()).isEmpty();
    assertThat(back.stillRunning().get("n1"))
        .as("%s %s", back, events)
        .containsExactly(new LinkMessage.Running("d@1", 0, stays));
    assertThat(back.ended())
        .as("%s %s", back, events)
        .as("an exit code, and a signal as the signal, not the shell's 128 + 11")
        .containsOnly(
            Map.entry(new LinkMessage.Running("d@1", 1, 0), ProcEnd.exited(7, 0)),
            Map.entry(new LinkMessage.Running("d@1", 3, 0), ProcEnd.exited(0, 11)));
    assertThat(m1.state()).isEqualTo(NodeState.UP);
    await("the agent ends what the DVM does not count", () -> ProcessHandle.of(stranger).isEmpty());
    await("held output flows on the new link", () -> events.contains("n1 d@1.1 STDOUT bye"));
    // What kept running reports through the new link; what ended is reported once, by the
    // reconciliation, not again as an exit.
    m1.signalProc("d@1", 0, 15);
    await("rank 0 ends on the new link", () -> events.contains("n1 d@1.0 killed by 15"));
    assertThat(events)
        .noneMatch(
            e ->
                e.contains("d@1.1 exited")
                    || e.contains("d@1.1 killed")
                    || e.contains("d@2.0 exited")
                    || e.contains("d@2.0 killed"));
  }

  /** Connects to a port until it holds N connections (retrying while nothing listens), silent. */
  private static final String LINK_FLOOD =
      """
      import resource, socket, sys, time
      soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
      resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
      port, n = int(sys.argv[1]), int(sys.argv[2])
      held = []
      print("started", flush=True)
      while len(held) < n:
          try:
              held.append(socket.create_connection(("127.0.0.1", port)))
          except OSError:
              time.sleep(0.001)
      print("opened", len(held), flush=True)
      sys.stdin.read()
      """;

  /**
   * Another local user holds thousands of silent connections to the agent-link port from the moment
   * a restarted controller listens again (docs/protocol.md "Agent link"): the agent still rejoins
   * within the rejoin time and its job is not declared lost. As root with a throwaway user; skipped
   * otherwise.
   */
  @Test
  void anotherUsersConnectionsToTheAgentLinkPortDoNotKeepAnAgentFromRejoiningARestart()
      throws Exception {
    assumeTrue(new java.io.File("/usr/bin/python3").canExecute(), "python3 runs the flood");
    try (org.jdvm.host.OtherUser other = org.jdvm.host.OtherUser.create()) {
      AgentHub first = hub(200, 5);
      RemoteNodeAgent n1 = first.expect("n1");
      n1.bind(sink);
      Running agent = agent(first, "n1", credentials, 60_000);
      await("n1 up", () -> n1.state() == NodeState.UP);
      long stays = launch(n1, "d@1", 0, false, "/bin/sleep", "60");
      int port = first.address().getPort();
      first.abandon(); // the controller is killed
      await("the agent noticed", () -> agent.daemon().link() == null);
      // The other user takes the port the moment the restarted controller listens again.
      Process flood =
          other.start("/usr/bin/python3", "-c", LINK_FLOOD, Integer.toString(port), "3000");
      try {
        java.io.BufferedReader said =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(flood.getInputStream(), UTF_8));
        assertThat(said.readLine()).isEqualTo("started");
        AgentHub second =
            AgentHub.openRejoining(
                credentials,
                new AgentHub.Settings(200, 5),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                List.of("n1"),
                10_000,
                System::nanoTime);
        toClose.add(second);
        second.get("n1").bind(sink);
        assertThat(said.readLine()).startsWith("opened");
        Thread.sleep(6_000); // the restarted controller reads its journal meanwhile

        AgentHub.Rejoined back = second.rejoin(Map.of("n1", Map.of("d@1.0", stays)));

        assertThat(back.missing()).as("%s", back).isEmpty();
        assertThat(back.stillRunning().get("n1"))
            .containsExactly(new LinkMessage.Running("d@1", 0, stays));
        assertThat(second.get("n1").state()).isEqualTo(NodeState.UP);
      } finally {
        flood.getOutputStream().close();
        flood.waitFor(30, TimeUnit.SECONDS);
        flood.destroyForcibly();
      }
    }
  }

  @Test
  void anAgentThatDoesNotRejoinARestartedControllerInTimeLeavesItsNodeDown() throws Exception {
    AgentHub hub =
        AgentHub.openRejoining(
            credentials,
            new AgentHub.Settings(200, 5),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            List.of("n1", "n2"),
            100,
            System::nanoTime);
    toClose.add(hub);

    AgentHub.Rejoined back = hub.rejoin(Map.of("n1", Map.of("d@1.0", 4242L)));

    assertThat(back.missing()).containsExactly("n1");
    assertThat(hub.get("n1").state()).isEqualTo(NodeState.DOWN);
    assertThat(hub.get("n2").state())
        .as("a node the recovered state no longer holds")
        .isEqualTo(NodeState.DOWN);
    Running late = agent(hub, "n1", credentials, 1000);
    late.thread().join(15_000);
    assertThat(late.exit()[0]).isEqualTo(AgentDaemon.Exit.REFUSED);
  }

  /** The hello of an agent of node {@code n1} on host {@code h}, proved with {@code proof}. */
  private static void sendHello(Link l, LinkMessage.Challenge c, int version, Credentials proof)
      throws IOException {
    l.send(
        new LinkMessage.Hello(
            version,
            "h",
            "n1",
            1,
            Map.of(),
            List.of(),
            List.of(),
            Handshake.nonce(),
            Handshake.agentProof(proof, c.nonce(), "n1", "h"),
            ""));
  }
}
