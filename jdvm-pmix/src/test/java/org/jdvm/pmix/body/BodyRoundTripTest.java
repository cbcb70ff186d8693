package org.jdvm.pmix.body;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jdvm.pmix.BufferType;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every body reads back what it wrote, in each wire component and buffer type, and is read to its
 * last byte: a request after its command, a reply whole.
 */
class BodyRoundTripTest {
  private static final Proc P0 = new Proc("jdvm-1@2", 0);
  private static final List<Info> DIRECTIVES =
      List.of(
          Info.of(PmixKeys.COLLECT_DATA, Value.bool(true)),
          Info.of(PmixKeys.TIMEOUT, Value.integer(5)));
  private static final List<KVal> KVALS =
      List.of(new KVal("a", Value.string("x")), new KVal("n", Value.uint32(7)));

  static List<Arguments> formats() {
    return List.of(
        Arguments.of(WireFormat.V41),
        Arguments.of(WireFormat.V41.withBufferType(BufferType.FULLY_DESCRIBED)),
        Arguments.of(new WireFormat(WireComponent.V61, BufferType.NON_DESCRIBED)),
        Arguments.of(new WireFormat(WireComponent.V61, BufferType.FULLY_DESCRIBED)));
  }

  /** An unpacker after the request's command, which must be {@code command}. */
  private static Unpacker request(WireFormat f, byte[] body, int command) {
    Unpacker in = new Unpacker(f, body);
    assertThat(in.unpackCommand()).isEqualTo(command);
    return in;
  }

  @ParameterizedTest
  @MethodSource("formats")
  void aFenceRoundTrips(WireFormat f) {
    for (FenceRequest fence :
        List.of(
            new FenceRequest(List.of(Proc.wildcard("ns"), P0), DIRECTIVES),
            new FenceRequest(List.of(), List.of()))) {
      Unpacker in = request(f, fence.write(f), Commands.FENCENB_CMD);
      assertThat(FenceRequest.read(in, Checks.NONE)).isEqualTo(fence);
      in.expectEnd();
    }
  }

  @ParameterizedTest
  @MethodSource("formats")
  void aGetRoundTripsWithAndWithoutItsKey(WireFormat f) {
    for (GetRequest get :
        List.of(
            new GetRequest(P0, "k", DIRECTIVES),
            new GetRequest(Proc.wildcard("ns"), null, List.of()),
            new GetRequest(null, 3, List.of(), "k"))) {
      Unpacker in = request(f, get.write(f), Commands.GETNB_CMD);
      assertThat(GetRequest.read(in, Checks.NONE)).isEqualTo(get);
      in.expectEnd();
    }
    assertThat(new GetRequest(null, 3, List.of(), null).target()).isEqualTo(new Proc("", 3));
  }

  @ParameterizedTest
  @MethodSource("formats")
  void aGetReplyCarriesItsBlobsOnlyOnSuccess(WireFormat f) {
    GetReply found =
        new GetReply(
            PmixStatus.SUCCESS,
            List.of(
                new GetReply.Blob(Proc.wildcard("ns"), KVALS), new GetReply.Blob(P0, List.of())));
    Unpacker in = new Unpacker(f, found.write(f));
    assertThat(GetReply.read(in)).isEqualTo(found);
    in.expectEnd();

    GetReply refused = new GetReply(PmixStatus.ERR_NOT_FOUND, found.blobs());
    byte[] lone = refused.write(f);
    assertThat(lone).isEqualTo(new StatusReply(PmixStatus.ERR_NOT_FOUND).write(f));
    assertThat(GetReply.read(new Unpacker(f, lone))).isEqualTo(GetReply.status(-46));
  }

  @ParameterizedTest
  @MethodSource("formats")
  void aCommitRoundTripsItsSectionsAndSplitsThemByScope(WireFormat f) {
    CommitRequest commit = CommitRequest.of(KVALS, List.of(new KVal("r", Value.bool(false))));
    Unpacker in = request(f, commit.write(f), Commands.COMMIT_CMD);
    CommitRequest read = CommitRequest.read(in, Checks.NONE);
    in.expectEnd();
    assertThat(read.sections()).extracting(CommitRequest.Section::scope).containsExactly(1, 2);
    assertThat(read.local()).extracting(CommitRequest.Entry::kval).isEqualTo(KVALS);
    assertThat(read.remote())
        .extracting(CommitRequest.Entry::kval)
        .containsExactly(new KVal("r", Value.bool(false)));
    assertThat(read.local()).allMatch(e -> e.bytes() > 0, "each entry knows its size");
    assertThat(read.scopesKnown()).isTrue();

    CommitRequest nothing = CommitRequest.of(null, List.of());
    assertThat(nothing.sections()).as("nothing put: no section").isEmpty();
    assertThat(nothing.write(f))
        .isEqualTo(new Packer(f).packCommand(Commands.COMMIT_CMD).toByteArray());
  }

  @ParameterizedTest
  @MethodSource("formats")
  void aGlobalSectionIsInBothScopesAndAnUnknownScopeIsSeen(WireFormat f) {
    CommitRequest commit =
        new CommitRequest(
            List.of(
                new CommitRequest.Section(
                    CommitRequest.GLOBAL, List.of(new CommitRequest.Entry(KVALS.get(0), 0))),
                new CommitRequest.Section(7, List.of())));
    CommitRequest read =
        CommitRequest.read(request(f, commit.write(f), Commands.COMMIT_CMD), Checks.NONE);
    assertThat(read.local()).extracting(CommitRequest.Entry::kval).containsExactly(KVALS.get(0));
    assertThat(read.remote()).extracting(CommitRequest.Entry::kval).containsExactly(KVALS.get(0));
    assertThat(read.scopesKnown()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("formats")
  void jobDataRoundTripsAndIsReadOnlyAsFarAsWhatIsLookedFor(WireFormat f) {
    JobDataReply reply = new JobDataReply("ns", KVALS);
    byte[] body = reply.write(f);
    Unpacker in = new Unpacker(f, body);
    assertThat(JobDataReply.read(in)).isEqualTo(reply);
    in.expectEnd();

    Unpacker partial = new Unpacker(f, body);
    assertThat(JobDataReply.first(partial, k -> k.key().equals("a"))).isEqualTo(KVALS.get(0));
    assertThat(partial.hasRemaining()).as("the rest is not read").isTrue();
    assertThat(JobDataReply.first(new Unpacker(f, body), k -> k.key().equals("z"))).isNull();
    assertThat(JobDataReply.read(new Unpacker(f, new JobDataReply("t", List.of()).write(f))))
        .isEqualTo(new JobDataReply("t", List.of()));
  }

  @ParameterizedTest
  @MethodSource("formats")
  void publishLookupAndUnpublishRoundTrip(WireFormat f) {
    PublishRequest publish =
        new PublishRequest(1000, List.of(Info.of("port", Value.string("uri"))));
    Unpacker in = request(f, publish.write(f), Commands.PUBLISHNB_CMD);
    assertThat(PublishRequest.read(in, Checks.NONE)).isEqualTo(publish);
    in.expectEnd();

    for (KeysRequest keys :
        List.of(
            new KeysRequest(Commands.LOOKUPNB_CMD, 7, List.of("a", "b"), DIRECTIVES),
            new KeysRequest(Commands.UNPUBLISHNB_CMD, 0, List.of(), List.of()))) {
      in = request(f, keys.write(f), keys.command());
      assertThat(KeysRequest.read(in, keys.command(), Checks.NONE)).isEqualTo(keys);
      in.expectEnd();
    }

    LookupReply found =
        new LookupReply(PmixStatus.SUCCESS, List.of(new PData(P0, "port", Value.string("uri"))));
    for (LookupReply reply :
        List.of(found, new LookupReply(PmixStatus.SUCCESS, List.of()), error(f))) {
      in = new Unpacker(f, reply.write(f));
      assertThat(LookupReply.read(in)).isEqualTo(reply);
      in.expectEnd();
    }
  }

  private static LookupReply error(WireFormat f) {
    return new LookupReply(PmixStatus.ERR_TIMEOUT, List.of());
  }

  @ParameterizedTest
  @MethodSource("formats")
  void connectDisconnectAndTheirRepliesRoundTrip(WireFormat f) {
    for (int command : new int[] {Commands.CONNECTNB_CMD, Commands.DISCONNECTNB_CMD}) {
      ConnectNbRequest r =
          new ConnectNbRequest(command, List.of(P0, Proc.wildcard("c")), DIRECTIVES);
      Unpacker in = request(f, r.write(f), command);
      assertThat(ConnectNbRequest.read(in, command, Checks.NONE)).isEqualTo(r);
      in.expectEnd();
    }
    ConnectNbReply reply =
        new ConnectNbReply(
            PmixStatus.SUCCESS,
            List.of(
                new ConnectNbReply.Job("child", KVALS), new ConnectNbReply.Job("x", List.of())));
    Unpacker in = new Unpacker(f, reply.write(f));
    assertThat(ConnectNbReply.read(in)).isEqualTo(reply);
    in.expectEnd();
    byte[] partial = new ConnectNbReply(PmixStatus.ERR_PARTIAL_SUCCESS, reply.jobs()).write(f);
    assertThat(ConnectNbReply.read(new Unpacker(f, partial)).jobs()).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("formats")
  void logAndStdinPushRoundTrip(WireFormat f) {
    LogRequest log =
        new LogRequest(0, List.of(Info.of("pmix.log.stderr", Value.string("hi"))), DIRECTIVES);
    Unpacker in = request(f, log.write(f), Commands.LOG_CMD);
    assertThat(LogRequest.read(in, Checks.NONE)).isEqualTo(log);
    in.expectEnd();

    IofPushRequest push = new IofPushRequest(List.of(P0), List.of(), "data".getBytes());
    in = request(f, push.write(f), Commands.IOF_PUSH_CMD);
    IofPushRequest read = IofPushRequest.read(in, Checks.NONE);
    in.expectEnd();
    assertThat(read.targets()).isEqualTo(push.targets());
    assertThat(read.data()).isEqualTo("data".getBytes());

    IofPushRequest none = new IofPushRequest(List.of(P0), DIRECTIVES, null);
    in = request(f, none.write(f), Commands.IOF_PUSH_CMD);
    IofPushRequest.Head head = IofPushRequest.readHead(in, Checks.NONE);
    assertThat(head).isEqualTo(new IofPushRequest.Head(List.of(P0), DIRECTIVES));
    assertThat(IofPushRequest.readData(in)).as("no chunk: nothing to forward").isNull();
  }

  @ParameterizedTest
  @MethodSource("formats")
  void aStatusReplyIsOneUnit(WireFormat f) {
    byte[] body = new StatusReply(PmixStatus.ERR_BAD_PARAM).write(f);
    Unpacker in = new Unpacker(f, body);
    assertThat(StatusReply.read(in)).isEqualTo(new StatusReply(PmixStatus.ERR_BAD_PARAM));
    in.expectEnd();
    assertThat(new Unpacker(f, body).unpack(DataType.STATUS)).hasSize(1);
  }

  @ParameterizedTest
  @MethodSource("formats")
  void abortAndOutputRegistrationsRoundTrip(WireFormat f) {
    for (AbortRequest abort :
        List.of(new AbortRequest(3, "bye", List.of(P0)), new AbortRequest(-1, null, List.of()))) {
      Unpacker in = request(f, abort.write(f), Commands.ABORT_CMD);
      assertThat(AbortRequest.read(in, Checks.NONE)).isEqualTo(abort);
      in.expectEnd();
    }
    IofPullRequest pull = new IofPullRequest(List.of(Proc.wildcard("ns")), DIRECTIVES, 0x06, 9);
    Unpacker in = request(f, pull.write(f), Commands.IOF_PULL_CMD);
    assertThat(IofPullRequest.read(in, Checks.NONE)).isEqualTo(pull);
    in.expectEnd();
    Unpacker reply = new Unpacker(f, IofPullRequest.writeReply(f, PmixStatus.SUCCESS, 12));
    assertThat(reply.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
    assertThat(reply.unpackSize()).isEqualTo(12);
    reply.expectEnd();

    IofDeregRequest dereg = new IofDeregRequest(List.of(), 12);
    in = request(f, dereg.write(f), Commands.IOF_DEREG_CMD);
    assertThat(IofDeregRequest.read(in, Checks.NONE)).isEqualTo(dereg);
    in.expectEnd();
  }
}
