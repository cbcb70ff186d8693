package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.query.JobView;
import org.jdvm.host.Await;
import org.jdvm.pmix.App;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.Tags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The endpoint byte by byte, with a peer built from the codec alone: replies on the request's tag
 * with the payload a 4.2.2 caller needs (pmix-interop-notes.md §1, §7), faults that poison one
 * message or the whole connection, refusals at the handshake by closing the socket, and the DVM
 * still serving after each.
 */
class EndpointWireTest {
  @TempDir Path home;
  private EndpointFixture f;
  private InetSocketAddress server;

  @BeforeEach
  void start() throws IOException {
    f = new EndpointFixture(home, 1, 2, 2);
    server = f.endpoint.tcpAddress();
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static App app(String... argv) {
    return new App(argv[0], List.of(argv), List.of(), null, 1, List.of());
  }

  /** Spawns from a raw tool; returns the new namespace. */
  private static String spawn(RawPeer tool, List<Info> infos, App app) throws IOException {
    int tag = tool.request(Commands.SPAWNNB_CMD, p -> p.packInfos(infos).packApps(List.of(app)));
    Unpacker r = tool.reply(tag).body();
    assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
    return r.unpackString();
  }

  private static int queryNamespaces(RawPeer peer) throws IOException {
    int tag =
        peer.request(
            Commands.QUERY_CMD,
            p -> p.packQueries(List.of(new Query(List.of("pmix.qry.ns"), List.of()))));
    Unpacker r = peer.reply(tag).body();
    int status = r.unpackStatus();
    if (status == PmixStatus.SUCCESS) {
      assertThat(r.unpackInfos()).extracting(Info::key).containsExactly("pmix.qry.ns");
    }
    return status;
  }

  // ---- replies -------------------------------------------------------------------------------

  @Test
  void tcpRepliesAreNotHeldBackByNaglesAlgorithm() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      assertThat(queryNamespaces(tool)).isEqualTo(PmixStatus.SUCCESS);
      assertThat(f.endpoint.connections())
          .filteredOn(c -> !c.unix())
          .isNotEmpty()
          .allSatisfy(
              c ->
                  assertThat(c.channel().getOption(java.net.StandardSocketOptions.TCP_NODELAY))
                      .isTrue());
    }
  }

  @Test
  void aToolsFirstRequestIsAnsweredWithItsNamespace() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      assertThat(tool.self().nspace()).startsWith(f.endpoint.dvmName() + "@");
      int tag = tool.request(Commands.REQ_CMD, p -> {});
      RawPeer.Frame reply = tool.reply(tag);
      Unpacker r = reply.body();
      assertThat(r.unpackString()).isEqualTo(tool.self().nspace());
      assertThat(r.hasRemaining()).isFalse();
    }
  }

  @Test
  void anUnknownCommandIsNotSupportedOnItsTagAndTheConnectionGoesOn() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      for (int command : List.of(Commands.GROUP_CONSTRUCT_CMD, 77)) {
        int tag = tool.request(command, p -> {});
        assertThat(tool.reply(tag).body().unpackStatus()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
      }
      int push = tool.request(Commands.IOF_PUSH_CMD, p -> p.packSize(0).packSize(0));
      assertThat(tool.reply(push).body().unpackStatus()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
      assertThat(queryNamespaces(tool)).isEqualTo(PmixStatus.SUCCESS);
    }
  }

  @Test
  void deregisteringEventsGetsNoReply() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      int reg =
          tool.request(Commands.REGEVENTS_CMD, p -> p.packSize(1).packStatus(-194).packSize(0));
      assertThat(tool.read().tag()).isEqualTo(reg);
      tool.request(Commands.DEREGEVENTS_CMD, p -> p.packStatus(-194));
      int query =
          tool.request(
              Commands.QUERY_CMD,
              p -> p.packQueries(List.of(new Query(List.of("pmix.qry.ns"), List.of()))));
      assertThat(tool.read().tag()).as("the next frame answers the query").isEqualTo(query);
    }
  }

  @Test
  void aWrongValueTypeIsBadParamInTheShapeEachCallerParses() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      int spawn =
          tool.request(
              Commands.SPAWNNB_CMD,
              p ->
                  p.packInfos(List.of(Info.of(PmixKeys.SPAWN_TARGET, Value.integer(3))))
                      .packApps(List.of(app("true"))));
      Unpacker s = tool.reply(spawn).body();
      assertThat(s.unpackStatus()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
      assertThat(s.unpackString()).isNull();
      int alloc =
          tool.request(
              Commands.ALLOC_CMD,
              p ->
                  p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                      .packInfos(List.of(Info.of(PmixKeys.ALLOC_TIME, Value.bool(true)))));
      Unpacker a = tool.reply(alloc).body();
      assertThat(a.unpackStatus()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
      assertThat(a.unpackSize()).isZero();
      assertThat(f.read(v -> v.pending().size()).intValue()).isZero();
    }
  }

  @Test
  void aSuccessfulAllocationCarriesItsSizeAndInfos() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      int tag =
          tool.request(
              Commands.ALLOC_CMD,
              p ->
                  p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                      .packInfos(
                          List.of(
                              Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(1)),
                              Info.of(PmixKeys.ALLOC_INHERITANCE, Value.uint8(2)),
                              Info.of(PmixKeys.ALLOC_TIME, Value.uint32(600)))));
      Unpacker r = tool.reply(tag).body();
      assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      List<Info> infos = r.unpackInfos();
      assertThat(infos)
          .extracting(Info::key)
          .contains(PmixKeys.ALLOC_ID, PmixKeys.SESSION_ID, PmixKeys.ALLOC_NODE_LIST);
      String allocId =
          infos.stream()
              .filter(i -> i.key().equals(PmixKeys.ALLOC_ID))
              .findFirst()
              .orElseThrow()
              .value()
              .asString();
      String inheritance = f.read(v -> v.allocation(allocId).orElseThrow().inheritance().name());
      assertThat(inheritance).isEqualTo("CHILD");
    }
  }

  // ---- faults --------------------------------------------------------------------------------

  @Test
  void aMalformedBodyIsAnsweredWithTheDecodersStatusAndTheConnectionGoesOn() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      byte[] command =
          new org.jdvm.pmix.codec.Packer(tool.format).packCommand(Commands.QUERY_CMD).toByteArray();
      byte[] garbage = new byte[command.length + 3];
      System.arraycopy(command, 0, garbage, 0, command.length);
      garbage[command.length] = 0x02;
      garbage[command.length + 1] = (byte) 0xff;
      garbage[command.length + 2] = (byte) 0xff;
      int tag = tool.send(garbage);
      Unpacker r = tool.reply(tag).body();
      int status = r.unpackStatus();
      assertThat(status).isLessThan(0).isNotEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
      assertThat(r.unpackSize()).isZero();
      int empty = tool.send(new byte[0]);
      assertThat(tool.reply(empty).body().unpackStatus()).isLessThan(0);
      assertThat(queryNamespaces(tool)).isEqualTo(PmixStatus.SUCCESS);
    }
  }

  @Test
  void anOversizedFrameClosesTheConnectionAndTheDvmServesOthers() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      byte[] header = new byte[FrameHeader.BYTES];
      FrameHeader.of(0, 101, FrameHeader.MAX_MESSAGE_BYTES + 1).encode(header, 0);
      tool.writeRaw(header);
      assertThat(tool.closedByServer()).isTrue();
    }
    try (RawPeer other = RawPeer.tool(server)) {
      assertThat(queryNamespaces(other)).isEqualTo(PmixStatus.SUCCESS);
    }
  }

  @Test
  void garbageInsteadOfAHandshakeClosesTheConnection() throws IOException {
    try (RawPeer peer = RawPeer.open(server, WireFormat.V41)) {
      peer.writeRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      assertThat(peer.closedByServer()).isTrue();
    }
    try (RawPeer peer = RawPeer.open(server, WireFormat.V41)) {
      byte[] header = FrameHeader.encodeConnect(FrameHeader.MAX_CONNECT_BYTES + 1);
      peer.writeRaw(header);
      assertThat(peer.closedByServer()).isTrue();
    }
    try (RawPeer tool = RawPeer.tool(server)) {
      assertThat(queryNamespaces(tool)).isEqualTo(PmixStatus.SUCCESS);
    }
  }

  @Test
  void aToolThatDisconnectsMidRequestDepartsAndItsQueuedRequestIsWithdrawn() throws IOException {
    try (RawPeer holder = RawPeer.tool(server)) {
      int all =
          holder.request(
              Commands.ALLOC_CMD,
              p ->
                  p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                      .packInfos(List.of(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2)))));
      assertThat(holder.reply(all).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      String leaver;
      try (RawPeer waiting = RawPeer.tool(server)) {
        leaver = waiting.self().nspace();
        waiting.request(
            Commands.ALLOC_CMD,
            p ->
                p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                    .packInfos(List.of(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(1)))));
        Await.until(
            () -> f.read(v -> v.pending().stream().anyMatch(p -> p.queued())),
            "the request to queue");
      }
      Await.until(
          () -> f.read(v -> v.pending().isEmpty()), "the departed tool's request to be withdrawn");
      JobView.State state = f.read(v -> v.job(leaver).orElseThrow().state());
      assertThat(state).isEqualTo(JobView.State.TERMINATED);
      assertThat(queryNamespaces(holder)).isEqualTo(PmixStatus.SUCCESS);
    }
  }

  // ---- launched processes --------------------------------------------------------------------

  @Test
  void aLaunchedProcessIsAdmittedWithItsCredentialAndGetsItsJobData() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      String job =
          spawn(
              tool,
              List.of(),
              new App("sleep", List.of("sleep", "60"), List.of(), null, 2, List.of()));
      Await.until(
          () -> f.read(v -> v.job(job).orElseThrow().state() == JobView.State.RUNNING), "launch");
      Proc rank1 = new Proc(job, 1);
      Info cred =
          Info.of(JdvmProtocol.CREDENTIAL, Value.string(f.credentials.procCredential(job, 1)));
      try (RawPeer client = RawPeer.client(server, rank1, List.of(cred))) {
        assertThat(client).isNotNull();
        assertThat(client.self()).isEqualTo(rank1);
        int req = client.request(Commands.REQ_CMD, p -> {});
        Unpacker r = client.reply(req).body();
        assertThat(r.unpackString()).isEqualTo(job);
        List<KVal> jobData = new ArrayList<>();
        while (r.hasRemaining()) {
          jobData.add((KVal) r.unpackOne(DataType.KVAL));
        }
        KVal size = new KVal(PmixKeys.JOB_SIZE, Value.uint32(2));
        assertThat(jobData).contains(size, new KVal(PmixKeys.MAX_PROCS, Value.uint32(2)));

        int hit =
            client.request(
                Commands.GETNB_CMD,
                p ->
                    p.packString(job)
                        .packInteger(DataType.PROC_RANK, Proc.RANK_WILDCARD & 0xFFFFFFFFL)
                        .packSize(0)
                        .packString(PmixKeys.JOB_SIZE));
        Unpacker g = client.reply(hit).body();
        assertThat(g.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
        ByteObject data = (ByteObject) g.unpackOne(DataType.BYTE_OBJECT);
        Unpacker inner = new Unpacker(client.format, RawPeer.bytes(data));
        assertThat(inner.unpackProc()).isEqualTo(Proc.wildcard(job));
        assertThat(inner.unpackOne(DataType.KVAL)).isEqualTo(size);

        int miss =
            client.request(
                Commands.GETNB_CMD,
                p ->
                    p.packString(job)
                        .packInteger(DataType.PROC_RANK, 1)
                        .packInfos(List.of(Info.of(PmixKeys.IMMEDIATE, Value.bool(true))))
                        .packString("no.such.key"));
        assertThat(client.reply(miss).body().unpackStatus()).isEqualTo(PmixStatus.ERR_NOT_FOUND);

        int abort =
            client.request(
                Commands.ABORT_CMD, p -> p.packStatus(3).packString("giving up").packSize(0));
        assertThat(client.reply(abort).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
        Await.until(
            () -> f.read(v -> v.job(job).orElseThrow().state() == JobView.State.TERMINATED),
            "the aborted job to end");
      }
    }
  }

  @Test
  void aWrongCredentialOrAForgedNamespaceIsRefusedByClosingTheSocket() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      String job = spawn(tool, List.of(), app("sleep", "60"));
      Await.until(
          () -> f.read(v -> v.job(job).orElseThrow().state() == JobView.State.RUNNING), "launch");
      Proc rank0 = new Proc(job, 0);
      List<List<Info>> refused =
          List.of(
              List.of(cred("not-a-credential")),
              List.of(cred(f.credentials.procCredential(job, 1))),
              List.of(cred(f.credentials.schedulerCredential())),
              List.of());
      for (List<Info> blob : refused) {
        assertThat(RawPeer.client(server, rank0, blob)).as("blob " + blob).isNull();
      }
      Proc ghost = new Proc(job, 5);
      assertThat(RawPeer.client(server, ghost, List.of(cred(f.credentials.procCredential(job, 5)))))
          .as("a rank the job does not have")
          .isNull();
      Proc forged = new Proc("forged@1", 0);
      assertThat(
              RawPeer.client(
                  server, forged, List.of(cred(f.credentials.procCredential("forged@1", 0)))))
          .as("a namespace the DVM never made")
          .isNull();
      try (RawPeer ok =
          RawPeer.client(server, rank0, List.of(cred(f.credentials.procCredential(job, 0))))) {
        assertThat(ok).isNotNull();
        assertThat(queryNamespaces(ok)).isEqualTo(PmixStatus.SUCCESS);
      }
    }
  }

  private static Info cred(String c) {
    return Info.of(JdvmProtocol.CREDENTIAL, Value.string(c));
  }

  // ---- output --------------------------------------------------------------------------------

  @Test
  void anIofPullDeliversWithThePullersIdAndDeregisteringEndsIt() throws IOException {
    try (RawPeer spawner = RawPeer.tool(server);
        RawPeer puller = RawPeer.tool(server)) {
      List<Info> quiet =
          List.of(
              Info.of("pmix.fwd.stdout", Value.bool(false)),
              Info.of("pmix.fwd.stderr", Value.bool(false)));
      String job =
          spawn(spawner, quiet, app("sh", "-c", "while :; do echo tick; sleep 0.02; done"));
      int pull =
          puller.request(
              Commands.IOF_PULL_CMD,
              p ->
                  p.packSize(1)
                      .pack(DataType.PROC, Proc.wildcard(job))
                      .packSize(0)
                      .packInteger(DataType.IOF_CHANNEL, 0x02)
                      .packSize(7));
      RawPeer.Frame reply = puller.reply(pull);
      Unpacker r = reply.body();
      assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      long serverId = r.unpackSize();
      RawPeer.Frame out = puller.read();
      while (out.tag() != Tags.IOF) {
        out = puller.read();
      }
      Unpacker io = out.body();
      assertThat(io.unpackProc()).isEqualTo(new Proc(job, 0));
      assertThat(io.unpackInteger(DataType.IOF_CHANNEL)).isEqualTo(0x02);
      assertThat(io.unpackSize()).as("the puller's own id").isEqualTo(7);
      assertThat(io.unpackSize()).isZero();
      assertThat(new String(RawPeer.bytes((ByteObject) io.unpackOne(DataType.BYTE_OBJECT))))
          .startsWith("tick");
      int dereg = puller.request(Commands.IOF_DEREG_CMD, p -> p.packSize(0).packSize(serverId));
      assertThat(puller.reply(dereg).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      int again = puller.request(Commands.IOF_DEREG_CMD, p -> p.packSize(0).packSize(serverId));
      assertThat(puller.reply(again).body().unpackStatus()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
      int term =
          spawner.request(
              Commands.JOB_CONTROL_CMD,
              p ->
                  p.packSize(1)
                      .pack(DataType.PROC, Proc.wildcard(job))
                      .packInfos(List.of(Info.of("pmix.jctrl.term", Value.bool(true)))));
      Unpacker t = spawner.reply(term).body();
      assertThat(t.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      assertThat(t.unpackSize()).isZero();
    }
  }

  @Test
  void jdvmStopIsAnsweredAndThenRunsTheStopHook() throws IOException {
    try (RawPeer tool = RawPeer.tool(server)) {
      int tag = tool.request(JdvmProtocol.STOP_CMD, p -> {});
      assertThat(tool.reply(tag).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      Await.until(() -> f.stops.get() == 1, "the stop hook");
    }
  }
}
