package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jdvm.endpoint.serve.EndpointLimits;
import org.jdvm.pmix.App;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each {@link EndpointLimits} limit, one test each: past it the request is refused {@code
 * PMIX_ERR_OUT_OF_RESOURCE}, the DVM's state is what it was, and the connection goes on serving.
 * The limits are set low (2) so that a test reaches them with a handful of messages.
 */
class EndpointLimitsTest {
  private static final EndpointLimits LOW = new EndpointLimits(2, 2, 2, 2, 2, 256, 2);

  @TempDir Path home;
  private EndpointFixture f;
  private RawPeer tool;

  @BeforeEach
  void start() throws IOException {
    f = new EndpointFixture(home, 1, 2, 2, LOW);
    tool = RawPeer.tool(f.endpoint.tcpAddress());
  }

  @AfterEach
  void stop() throws IOException {
    tool.close();
    f.close();
  }

  /** What a refusal must not change: allocations, pending asks, jobs and their states, nodes. */
  private String state() {
    return f.read(
        v ->
            v.allocationIds()
                + " pending="
                + v.pending().size()
                + " jobs="
                + v.jobs().stream()
                    .map(j -> j.namespace() + ":" + j.state())
                    .sorted()
                    .collect(Collectors.toList())
                + " nodes="
                + v.nodes().size());
  }

  private int status(int tag) throws IOException {
    return tool.reply(tag).body().unpackStatus();
  }

  private boolean stillServes() throws IOException {
    return status(tool.request(Commands.IOF_DEREG_CMD, p -> p.packInfos(List.of()).packSize(99)))
        == PmixStatus.ERR_NOT_FOUND;
  }

  @Test
  void moreInfosInOneRequestThanTheLimitAreRefusedAndReserveNothing() throws IOException {
    String before = state();
    List<Info> infos =
        List.of(
            Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(1)),
            Info.of(PmixKeys.ALLOC_REQ_ID, Value.string("r1")),
            Info.of(PmixKeys.ALLOC_SHARE, Value.bool(false)));
    int tag =
        tool.request(
            Commands.ALLOC_CMD, p -> p.packInteger(DataType.ALLOC_DIRECTIVE, 1).packInfos(infos));
    assertThat(status(tag)).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(state()).isEqualTo(before);
    assertThat(stillServes()).isTrue();
  }

  @Test
  void moreProcessesNamedInOneRequestThanTheLimitAreRefusedAndSignalNothing() throws IOException {
    String before = state();
    List<Proc> targets = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      targets.add(Proc.wildcard(f.endpoint.dvmName() + "@" + (100 + k)));
    }
    int tag =
        tool.request(
            Commands.JOB_CONTROL_CMD,
            p ->
                p.packSize(targets.size())
                    .pack(DataType.PROC, targets)
                    .packInfos(List.of(Info.of("pmix.jctrl.term", Value.bool(true)))));
    Unpacker r = tool.reply(tag).body();
    assertThat(r.unpackStatus()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(r.unpackSize()).isZero();
    assertThat(state()).isEqualTo(before);
    assertThat(stillServes()).isTrue();
  }

  @Test
  void registeringMoreEventCodesThanTheLimitIsRefused() throws IOException {
    int ok =
        tool.request(
            Commands.REGEVENTS_CMD,
            p -> p.packSize(2).pack(DataType.STATUS, -194L, -195L).packSize(0));
    assertThat(status(ok)).isEqualTo(PmixStatus.SUCCESS);
    int over =
        tool.request(Commands.REGEVENTS_CMD, p -> p.packSize(1).packStatus(-196).packSize(0));
    assertThat(status(over)).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(stillServes()).isTrue();
  }

  @Test
  void holdingMoreOutputRegistrationsThanTheLimitIsRefused() throws IOException {
    for (int k = 0; k < 2; k++) {
      assertThat(status(pull(k))).isEqualTo(PmixStatus.SUCCESS);
    }
    assertThat(status(pull(2))).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(stillServes()).isTrue();
  }

  private int pull(long localId) throws IOException {
    List<Proc> procs = List.of(Proc.wildcard("nobody"));
    return tool.request(
        Commands.IOF_PULL_CMD,
        p ->
            p.packSize(1)
                .pack(DataType.PROC, procs)
                .packInfos(List.of())
                .packInteger(DataType.IOF_CHANNEL, 2)
                .packSize(localId));
  }

  @Test
  void moreRequestsWaitingForTheDvmThanTheLimitAreRefusedAndQueueNothing() throws IOException {
    // The two spare nodes are held; asks that are not required then queue, and their requests
    // wait: two fill the limit, the third is refused at once.
    int hold =
        tool.request(
            Commands.ALLOC_CMD,
            p ->
                p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                    .packInfos(
                        List.of(
                            new Info(PmixKeys.ALLOC_NUM_NODES, Info.REQUIRED, Value.uint64(2)))));
    assertThat(status(hold)).isEqualTo(PmixStatus.SUCCESS);
    List<Integer> waiting = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      String reqId = "q" + k;
      waiting.add(
          tool.request(
              Commands.ALLOC_CMD,
              p ->
                  p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                      .packInfos(
                          List.of(
                              new Info(PmixKeys.ALLOC_NUM_NODES, 0, Value.uint64(1)),
                              Info.of(PmixKeys.ALLOC_REQ_ID, Value.string(reqId))))));
    }
    org.jdvm.host.Await.until(() -> f.read(v -> v.pending().size()) == 2, "two queued asks");
    String before = state();
    int over =
        tool.request(
            Commands.ALLOC_CMD,
            p ->
                p.packInteger(DataType.ALLOC_DIRECTIVE, 1)
                    .packInfos(List.of(new Info(PmixKeys.ALLOC_NUM_NODES, 0, Value.uint64(1)))));
    Unpacker r = tool.reply(over).body();
    assertThat(r.unpackStatus()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(state()).isEqualTo(before);
    assertThat(waiting).hasSize(2);
  }

  // ---- the wire-up ---------------------------------------------------------------------------

  /** A running job of two sleeping ranks, and a connection as each of them. */
  private List<RawPeer> ranks() throws IOException {
    int tag =
        tool.request(
            Commands.SPAWNNB_CMD,
            p ->
                p.packInfos(List.of())
                    .packApps(
                        List.of(
                            new App(
                                "sleep", List.of("sleep", "60"), List.of(), null, 2, List.of()))));
    Unpacker r = tool.reply(tag).body();
    assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
    String job = r.unpackString();
    List<RawPeer> peers = new ArrayList<>();
    for (int rank = 0; rank < 2; rank++) {
      Info cred =
          Info.of(JdvmProtocol.CREDENTIAL, Value.string(f.credentials.procCredential(job, rank)));
      RawPeer peer = RawPeer.client(f.endpoint.tcpAddress(), new Proc(job, rank), List.of(cred));
      assertThat(peer).isNotNull();
      peers.add(peer);
    }
    return peers;
  }

  private static int commit(RawPeer peer, String key, String value) throws IOException {
    byte[] kvals =
        new Packer(peer.format)
            .pack(DataType.KVAL, new KVal(key, Value.string(value)))
            .toByteArray();
    int tag =
        peer.request(
            Commands.COMMIT_CMD,
            p ->
                p.packInteger(DataType.SCOPE, 3)
                    .packBuffer(new PackedBuffer(BufferType.NON_DESCRIBED, ByteObject.of(kvals))));
    return peer.reply(tag).body().unpackStatus();
  }

  private static int getOwn(RawPeer peer, String key, List<Info> infos, boolean wait)
      throws IOException {
    int tag =
        peer.request(
            Commands.GETNB_CMD,
            p ->
                p.packString(peer.self().nspace())
                    .packInteger(DataType.PROC_RANK, peer.self().rank())
                    .packInfos(infos)
                    .packString(key));
    return wait ? peer.reply(tag).body().unpackStatus() : tag;
  }

  @Test
  void aCommitPastARanksByteBoundIsRefusedAndKeepsNothing() throws IOException {
    List<RawPeer> ranks = ranks();
    RawPeer r0 = ranks.get(0);
    List<Info> immediate = List.of(Info.of(PmixKeys.IMMEDIATE, Value.bool(true)));
    assertThat(commit(r0, "w.big", "x".repeat(300))).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(getOwn(r0, "w.big", immediate, true)).isEqualTo(PmixStatus.ERR_NOT_FOUND);
    assertThat(commit(r0, "w.small", "x")).isEqualTo(PmixStatus.SUCCESS);
    assertThat(getOwn(r0, "w.small", immediate, true)).isEqualTo(PmixStatus.SUCCESS);
    for (RawPeer r : ranks) {
      r.close();
    }
  }

  @Test
  void getsWaitingForACommitCountAgainstTheConnectionsWaitingRequests() throws IOException {
    List<RawPeer> ranks = ranks();
    RawPeer r0 = ranks.get(0);
    List<Info> oneSecond = List.of(Info.of(PmixKeys.TIMEOUT, Value.integer(1)));
    int first = getOwn(r0, "w.nobody", oneSecond, false);
    int second = getOwn(r0, "w.nobody", oneSecond, false);
    assertThat(getOwn(r0, "w.nobody", oneSecond, true)).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(twoReplies(r0, first, second))
        .containsExactly(PmixStatus.ERR_TIMEOUT, PmixStatus.ERR_TIMEOUT);
    for (RawPeer r : ranks) {
      r.close();
    }
  }

  @Test
  void openFencesNamingANamespaceAreBoundedAndARefusalEntersNothing() throws IOException {
    List<RawPeer> ranks = ranks();
    RawPeer r0 = ranks.get(0);
    RawPeer r1 = ranks.get(1);
    String job = r0.self().nspace();
    Proc all = Proc.wildcard(job);
    // a fence of one completes at once (and the endpoint learns the job's size, so that the next
    // entries are made before their connection's next request is read)
    assertThat(r0.reply(fence(r0, List.of(r0.self()))).body().unpackStatus())
        .isEqualTo(PmixStatus.SUCCESS);
    int a = fence(r0, List.of(all));
    int b = fence(r0, List.of(all, r0.self()));
    assertThat(r0.reply(r0.request(Commands.COMMIT_CMD, p -> {})).body().unpackStatus())
        .isEqualTo(PmixStatus.SUCCESS);
    int refused = fence(r1, List.of(all, r1.self()));
    assertThat(r1.reply(refused).body().unpackStatus()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    // the refused fence holds nothing: rank 1 completes the two open ones
    assertThat(r1.reply(fence(r1, List.of(all))).body().unpackStatus())
        .isEqualTo(PmixStatus.SUCCESS);
    assertThat(r1.reply(fence(r1, List.of(r0.self(), all))).body().unpackStatus())
        .isEqualTo(PmixStatus.SUCCESS);
    assertThat(twoReplies(r0, a, b)).containsExactly(PmixStatus.SUCCESS, PmixStatus.SUCCESS);
    for (RawPeer r : ranks) {
      r.close();
    }
  }

  /** The statuses of the replies to two requests, in request order, whichever comes first. */
  private static List<Integer> twoReplies(RawPeer peer, int first, int second) throws IOException {
    Integer[] status = new Integer[2];
    while (status[0] == null || status[1] == null) {
      RawPeer.Frame f = peer.read();
      if (f.tag() == first || f.tag() == second) {
        status[f.tag() == first ? 0 : 1] = f.body().unpackStatus();
      }
    }
    return List.of(status);
  }

  private static int fence(RawPeer peer, List<Proc> procs) throws IOException {
    return peer.request(
        Commands.FENCENB_CMD,
        p -> p.packSize(procs.size()).pack(DataType.PROC, procs).packInfos(List.of()));
  }
}
