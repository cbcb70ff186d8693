package org.jdvm.pmix.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.pmix.WireVectors.hex;

import java.util.List;
import java.util.Map;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.App;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.WireVectors;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bodies of allocation, session control, queries, spawns, job control and notifications: each
 * reads back what it wrote in every format, and where libpmix 4.2.2's bytes are known (the golden
 * vectors {@code wire/vectors.json}, the capture {@code wire/handshake_capture.json}) it writes
 * them and reads them.
 */
class JobBodiesTest {
  private static final List<Info> INFOS = List.of(Info.of(PmixKeys.ALLOC_ID, Value.string("42")));

  static List<WireFormat> formats() {
    return List.of(
        WireFormat.V41,
        WireFormat.V41.withBufferType(BufferType.FULLY_DESCRIBED),
        new WireFormat(WireComponent.V61, BufferType.NON_DESCRIBED),
        new WireFormat(WireComponent.V61, BufferType.FULLY_DESCRIBED));
  }

  private static Unpacker request(WireFormat f, byte[] body, int command) {
    Unpacker in = new Unpacker(f, body);
    assertThat(in.unpackCommand()).isEqualTo(command);
    return in;
  }

  private static WireVectors.Vector vector(String name) {
    return WireVectors.all().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void theAllocationReplyIsTheGoldenVector(BufferType mode) {
    WireFormat f = WireFormat.V41.withBufferType(mode);
    byte[] golden = vector("msgbody_alloc_reply").bytes(mode);
    InfosReply reply = new InfosReply(PmixStatus.SUCCESS, INFOS);
    assertThat(hex(reply.write(f))).isEqualTo(hex(golden));
    Unpacker in = new Unpacker(f, golden);
    assertThat(InfosReply.read(in)).isEqualTo(reply);
    in.expectEnd();
  }

  @ParameterizedTest
  @EnumSource(BufferType.class)
  void theNotifyRequestIsTheGoldenVector(BufferType mode) {
    WireFormat f = WireFormat.V41.withBufferType(mode);
    byte[] golden = vector("msgbody_notify_client_to_server").bytes(mode);
    NotifyRequest notify = new NotifyRequest(-194, DataRange.SESSION.code(), INFOS);
    assertThat(DataRange.SESSION.code()).as("the vector's range").isEqualTo(4);
    assertThat(hex(notify.write(f))).isEqualTo(hex(golden));
    Unpacker in = request(f, golden, Commands.NOTIFY_CMD);
    assertThat(NotifyRequest.read(in, Checks.NONE)).isEqualTo(notify);
    in.expectEnd();
  }

  @Test
  void theCapturedAllocationRequestAndReplyAreTheseBodies() {
    Map<?, ?> capture = (Map<?, ?>) Json.parse(WireVectors.resource("handshake_capture.json"));
    List<?> tool = (List<?>) capture.get("tool_session");
    byte[] request = hex((String) ((Map<?, ?>) tool.get(5)).get("hex"));
    byte[] reply = hex((String) ((Map<?, ?>) tool.get(6)).get("hex"));
    AllocRequest alloc =
        new AllocRequest(
            AllocDirective.NEW.code(), List.of(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2))));
    assertThat(Frames.command(WireFormat.V41, request)).isEqualTo(AllocRequest.COMMAND);
    Unpacker in = Frames.body(WireFormat.V41, request);
    in.unpackCommand();
    assertThat(AllocRequest.read(in, Checks.NONE)).isEqualTo(alloc);
    in.expectEnd();
    assertThat(hex(Frames.of(102, alloc.write(WireFormat.V41)))).isEqualTo(hex(request));
    assertThat(InfosReply.read(Frames.body(WireFormat.V41, reply)))
        .isEqualTo(new InfosReply(PmixStatus.SUCCESS, INFOS));
    assertThat(hex(Frames.of(102, new InfosReply(PmixStatus.SUCCESS, INFOS).write(WireFormat.V41))))
        .isEqualTo(hex(reply));
  }

  @ParameterizedTest
  @MethodSource("formats")
  void anErrorReplyCarriesNoResults(WireFormat f) {
    byte[] refused = new InfosReply(PmixStatus.ERR_NO_PERMISSIONS, INFOS).write(f);
    assertThat(refused).isEqualTo(InfosReply.status(PmixStatus.ERR_NO_PERMISSIONS).write(f));
    Unpacker in = new Unpacker(f, refused);
    assertThat(InfosReply.read(in)).isEqualTo(InfosReply.status(PmixStatus.ERR_NO_PERMISSIONS));
    assertThat(in.unpackInfos()).as("a SIZE 0 follows the status").isEmpty();
    in.expectEnd();
  }

  @ParameterizedTest
  @MethodSource("formats")
  void allocationSessionControlAndQueriesRoundTrip(WireFormat f) {
    AllocRequest alloc = new AllocRequest(AllocDirective.RELEASE.code(), INFOS);
    Unpacker in = request(f, alloc.write(f), Commands.ALLOC_CMD);
    assertThat(AllocRequest.read(in, Checks.NONE)).isEqualTo(alloc);
    in.expectEnd();

    SessionCtrlRequest ctrl = new SessionCtrlRequest(0xFFFF_FFFFL, INFOS);
    in = request(f, ctrl.write(f), Commands.SESSION_CTRL_CMD);
    assertThat(SessionCtrlRequest.read(in, Checks.NONE)).isEqualTo(ctrl);
    in.expectEnd();

    QueryRequest query =
        new QueryRequest(List.of(new Query(List.of(PmixKeys.QUERY_NAMESPACES), INFOS)));
    in = request(f, query.write(f), Commands.QUERY_CMD);
    assertThat(QueryRequest.read(in)).isEqualTo(query);
    in.expectEnd();
  }

  @ParameterizedTest
  @MethodSource("formats")
  void spawnJobControlAndTheirRepliesRoundTrip(WireFormat f) {
    App app = new App("/bin/true", List.of("true"), List.of("A=1"), "/tmp", 2, INFOS);
    SpawnNbRequest spawn = new SpawnNbRequest(INFOS, List.of(app, app));
    Unpacker in = request(f, spawn.write(f), Commands.SPAWNNB_CMD);
    assertThat(SpawnNbRequest.read(in, Checks.NONE)).isEqualTo(spawn);
    in.expectEnd();

    for (SpawnReply reply :
        List.of(new SpawnReply(0, "jdvm-1@4"), new SpawnReply(PmixStatus.ERR_BAD_PARAM, null))) {
      in = new Unpacker(f, reply.write(f));
      assertThat(SpawnReply.read(in)).isEqualTo(reply);
      in.expectEnd();
    }

    JobControlRequest control =
        new JobControlRequest(
            List.of(Proc.wildcard("jdvm-1@4")),
            List.of(Info.of(PmixKeys.JOB_CTRL_SIGNAL, Value.integer(15))));
    in = request(f, control.write(f), Commands.JOB_CONTROL_CMD);
    assertThat(JobControlRequest.read(in, Checks.NONE)).isEqualTo(control);
    in.expectEnd();
  }
}
