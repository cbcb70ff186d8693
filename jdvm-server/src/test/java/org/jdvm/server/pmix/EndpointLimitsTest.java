package org.jdvm.server.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.server.pmix.serve.EndpointLimits;
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
    org.jdvm.server.Await.until(() -> f.read(v -> v.pending().size()) == 2, "two queued asks");
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
}
