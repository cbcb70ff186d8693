package org.jdvm.endpoint.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.SessionOp;
import org.jdvm.endpoint.deliver.OutputRouter;
import org.jdvm.endpoint.transport.PeerFormat;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * PMIx infos into the core's requests (docs/protocol.md "How jdvm reads the standard commands"):
 * the accepted forms of every attribute, and a refusal with {@code PMIX_ERR_BAD_PARAM} for a value
 * of the wrong type, before the core sees anything.
 */
class RequestReadingTest {
  private static final RequestId ID = new RequestId(1);
  private static final Proc TOOL = new Proc("d@1", 0);

  private static Request.Allocate allocate(Info... infos) throws BadRequest {
    return AllocationOps.allocate(ID, TOOL, AllocDirective.NEW.code(), List.of(infos));
  }

  private static int refusal(ThrowingCall call) {
    BadRequest e = catchThrowableOfType(BadRequest.class, call::run);
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void inheritanceIsTakenAsType75OrUint8AndNothingElse() throws Exception {
    assertThat(allocate(Info.of(PmixKeys.ALLOC_INHERITANCE, Value.uint8(2))).inheritance())
        .isEqualTo(2);
    assertThat(
            allocate(
                    Info.of(
                        PmixKeys.ALLOC_INHERITANCE,
                        Value.inheritance(AllocInheritance.CHILD_DEFAULT)))
                .inheritance())
        .isEqualTo(4);
    assertThat(refusal(() -> allocate(Info.of(PmixKeys.ALLOC_INHERITANCE, Value.uint32(2)))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(() -> allocate(Info.of(PmixKeys.ALLOC_INHERITANCE, Value.string("NONE")))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void allocTimeIsAStringReadFromTheRightOrA422Uint32() throws Exception {
    assertThat(allocate(Info.of(PmixKeys.ALLOC_TIME, Value.string("1:30"))).timeLimitSeconds())
        .isEqualTo(90);
    assertThat(allocate(Info.of(PmixKeys.ALLOC_TIME, Value.string("1:0:0:0"))).timeLimitSeconds())
        .isEqualTo(86_400);
    assertThat(allocate(Info.of(PmixKeys.ALLOC_TIME, Value.uint32(3600))).timeLimitSeconds())
        .isEqualTo(3600);
    for (String bad : List.of("", ":30", "1::2", "x", "-5")) {
      assertThat(refusal(() -> allocate(Info.of(PmixKeys.ALLOC_TIME, Value.string(bad)))))
          .as(bad)
          .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    }
    assertThat(refusal(() -> allocate(Info.of(PmixKeys.ALLOC_TIME, Value.bool(true)))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void allocTimeAndInheritanceAreReadAndRefusedAlikeForAllocationAndSessionControl()
      throws Exception {
    List<Value> times =
        List.of(
            Value.string("1:30"),
            Value.uint32(3600),
            Value.string(":30"),
            Value.string("x"),
            Value.bool(true),
            Value.int32(-5));
    for (Value v : times) {
      Info i = Info.of(PmixKeys.ALLOC_TIME, v);
      int allocated = refusalOrZero(() -> allocate(i).timeLimitSeconds());
      int controlled =
          refusalOrZero(
              () -> AllocationOps.sessionControl(ID, TOOL, 1, List.of(i)).allocTimeSeconds());
      assertThat(controlled).as(v.toString()).isEqualTo(allocated);
      if (allocated == 0) {
        assertThat(AllocationOps.sessionControl(ID, TOOL, 1, List.of(i)).allocTimeSeconds())
            .isEqualTo(allocate(i).timeLimitSeconds());
      }
    }
    for (Value v : List.of(Value.uint8(2), Value.uint8(9), Value.string("CHILD"))) {
      Info i = Info.of(PmixKeys.ALLOC_INHERITANCE, v);
      assertThat(refusalOrZero(() -> AllocationOps.sessionControl(ID, TOOL, 1, List.of(i))))
          .as(v.toString())
          .isEqualTo(refusalOrZero(() -> allocate(i)));
    }
  }

  /** The refusal's status, or 0 when the call was accepted. */
  private static int refusalOrZero(ThrowingCall call) throws Exception {
    try {
      call.run();
      return 0;
    } catch (BadRequest e) {
      return e.status();
    }
  }

  @Test
  void theNodeListIsSplitOnCommasAndTheRequiredFlagOnTheAmountMakesItRequired() throws Exception {
    Request.Allocate listed =
        allocate(Info.required(PmixKeys.ALLOC_NODE_LIST, Value.string("a,b,c")));
    assertThat(listed.nodeList()).containsExactly("a", "b", "c");
    assertThat(listed.required()).isTrue();
    assertThat(allocate(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2))).required()).isFalse();
    Request.Allocate counted =
        allocate(
            new Info(
                PmixKeys.ALLOC_NUM_NODES, Info.REQUIRED | Info.ARRAY_END | 0x40, Value.uint64(2)));
    assertThat(counted.nodeCount()).isEqualTo(2);
    assertThat(counted.required()).as("unknown flag bits are masked").isTrue();
    assertThat(refusal(() -> allocate(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.string("2")))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(() -> allocate(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.int32(-1)))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void lendChildSeparationAndTheRestReachTheRequest() throws Exception {
    Request.Allocate r =
        AllocationOps.allocate(
            ID,
            TOOL,
            AllocDirective.RELEASE.code(),
            List.of(
                Info.of(PmixKeys.ALLOC_ID, Value.string("a1")),
                Info.of(PmixKeys.ALLOC_LEND, Value.string("10:00")),
                Info.of(PmixKeys.ALLOC_CHILD_SEP, Value.bool(true)),
                Info.of(PmixKeys.ALLOC_WARN_TIMEOUT, Value.uint32(30)),
                Info.of(PmixKeys.ALLOC_SHARE, Value.bool(true)),
                Info.of(PmixKeys.ALLOC_TARGET, Value.string("d@7")),
                Info.of("some.unknown.key", Value.integer(1))));
    assertThat(r.directive()).isEqualTo(AllocDirective.RELEASE);
    assertThat(r.allocId()).isEqualTo("a1");
    assertThat(r.lendSeconds()).isEqualTo(600);
    assertThat(r.childSeparated()).isTrue();
    assertThat(r.warnTimeoutSeconds()).isEqualTo(30);
    assertThat(r.share()).isTrue();
    assertThat(r.targetNamespace()).isEqualTo("d@7");
    assertThat(refusal(() -> AllocationOps.allocate(ID, TOOL, 9, List.of())))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void spawnTargetIsAStringOrAnArrayOfStrings() throws Exception {
    App app = new App("true", List.of("true"), List.of(), null, 1, List.of());
    JobOps.Spawn one =
        JobOps.spawn(
            ID,
            TOOL,
            true,
            List.of(Info.of(PmixKeys.SPAWN_TARGET, Value.string("a1"))),
            List.of(app));
    assertThat(one.request().spawnTarget()).containsExactly("a1");
    List<Object> targets = new ArrayList<>();
    targets.add("a1");
    targets.add(null);
    JobOps.Spawn many =
        JobOps.spawn(
            ID,
            TOOL,
            true,
            List.of(
                Info.of(
                    PmixKeys.SPAWN_TARGET, Value.array(new DataArray(DataType.STRING, 2, targets))),
                Info.of(PmixKeys.MAPBY, Value.string("node:OVERSUBSCRIBE")),
                Info.of(PmixKeys.NOTIFY_COMPLETION, Value.bool(true)),
                Info.of(PmixKeys.FWD_STDERR, Value.bool(false))),
            List.of(app));
    assertThat(many.request().spawnTarget()).containsExactly("a1", "");
    assertThat(many.request().mapBy()).isEqualTo(MapBy.NODE);
    assertThat(many.request().fill()).isEqualTo(new org.jdvm.core.NodeFill(0, true));
    assertThat(many.notifyCompletion()).isTrue();
    assertThat(many.channels()).isEqualTo(OutputRouter.STDOUT_CHANNEL);
    assertThat(
            refusal(
                () ->
                    JobOps.spawn(
                        ID,
                        TOOL,
                        true,
                        List.of(Info.of(PmixKeys.SPAWN_TARGET, Value.uint32(1))),
                        List.of(app))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(
            refusal(
                () ->
                    JobOps.spawn(
                        ID,
                        TOOL,
                        true,
                        List.of(Info.of(PmixKeys.MAPBY, Value.string("ppr:2:socket"))),
                        List.of(app))))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    JobOps.Spawn fromApp = JobOps.spawn(ID, TOOL, false, List.of(), List.of(app));
    assertThat(fromApp.channels()).as("an application forwards only what it asks for").isZero();
  }

  /**
   * Open MPI's MPI_Comm_spawn sends each app's working directory as {@code PMIX_WDIR} in the app's
   * info, never in its cwd: it is the app's cwd, as PRRTE takes it.
   */
  @Test
  void anAppsWdirInfoIsItsWorkingDirectory() throws Exception {
    App plain = app();
    App withWdir = app(Info.of(PmixKeys.WDIR, Value.string("/var/tmp")));
    App both =
        new App(
            "true",
            List.of("true"),
            List.of(),
            "/srv",
            1,
            List.of(Info.of(PmixKeys.WDIR, Value.string("/opt"))));
    List<App> apps =
        JobOps.spawn(ID, TOOL, false, List.of(), List.of(plain, withWdir, both)).request().apps();
    assertThat(apps).extracting(App::cwd).containsExactly(null, "/var/tmp", "/opt");
    assertThat(
            refusal(
                () ->
                    JobOps.spawn(
                        ID,
                        TOOL,
                        false,
                        List.of(),
                        List.of(app(Info.of(PmixKeys.WDIR, Value.integer(1)))))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  /** How many times the app's info says merge (as the launch reads it: the current name, true). */
  private static long merges(App a) {
    return a.info().stream()
        .filter(i -> i.equals(Info.of(PmixKeys.IOF_MERGE_STDERR_STDOUT, Value.bool(true))))
        .count();
  }

  private static App app(Info... infos) {
    return new App("true", List.of("true"), List.of(), null, 1, List.of(infos));
  }

  @Test
  void mergeStderrInTheJobsInfoReachesEveryAppOnceAndAnAppsOwnValueWins() throws Exception {
    Info on = Info.of(PmixKeys.IOF_MERGE_STDERR_STDOUT, Value.bool(true));
    Info off = Info.of(PmixKeys.IOF_MERGE_STDERR_STDOUT, Value.bool(false));
    Info oldName = Info.of(PmixKeys.MERGE_STDERR_STDOUT, Value.bool(true));
    List<App> job =
        JobOps.spawn(ID, TOOL, true, List.of(on), List.of(app(), app(off), app(on)))
            .request()
            .apps();
    assertThat(job).extracting(RequestReadingTest::merges).containsExactly(1L, 0L, 1L);
    List<App> apps =
        JobOps.spawn(ID, TOOL, true, List.of(), List.of(app(), app(oldName), app(off)))
            .request()
            .apps();
    assertThat(apps).extracting(RequestReadingTest::merges).containsExactly(0L, 1L, 0L);
    assertThat(apps.get(1).info()).as("the older name is read as the current one").hasSize(1);
    assertThat(JobOps.spawn(ID, TOOL, true, List.of(oldName), List.of(app())).request().apps())
        .extracting(RequestReadingTest::merges)
        .containsExactly(1L);
    Info text = Info.of(PmixKeys.IOF_MERGE_STDERR_STDOUT, Value.string("yes"));
    assertThat(refusal(() -> JobOps.spawn(ID, TOOL, true, List.of(text), List.of(app()))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(() -> JobOps.spawn(ID, TOOL, true, List.of(), List.of(app(text)))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void sessionControlCollectsEveryDirective() throws Exception {
    App app = new App("true", List.of("true"), List.of(), null, 1, List.of());
    Request.SessionControl r =
        AllocationOps.sessionControl(
            ID,
            TOOL,
            5,
            List.of(
                Info.of(PmixKeys.SESSION_INSTANTIATE, Value.bool(true)),
                Info.of(PmixKeys.ALLOC_NODE_LIST, Value.string("n1:4,n2")),
                Info.of(
                    PmixKeys.SESSION_RESOURCES,
                    Value.array(
                        DataArray.ofInfos(
                            List.of(Info.of(PmixKeys.ALLOC_NODE_LIST, Value.string("n3:2")))))),
                Info.of(
                    PmixKeys.SESSION_APP, Value.array(DataArray.of(DataType.APP, List.of(app)))),
                Info.of(PmixKeys.ALLOC_TIME, Value.uint32(60)),
                Info.of(PmixKeys.SESSION_SEP, Value.bool(false)),
                Info.of(PmixKeys.SESSION_CTRL_ID, Value.string("c")),
                Info.of(PmixKeys.ALLOC_INHERITANCE, Value.uint8(1))));
    assertThat(r.operations()).containsExactly(SessionOp.INSTANTIATE);
    assertThat(r.nodes())
        .containsExactly(new NodeSpec("n1", 4), new NodeSpec("n2", 1), new NodeSpec("n3", 2));
    assertThat(r.apps()).containsExactly(app);
    assertThat(r.allocTimeSeconds()).isEqualTo(60);
    assertThat(r.separate()).isFalse();
    assertThat(r.ctrlId()).isEqualTo("c");
    assertThat(r.inheritance()).isEqualTo(1);
    assertThat(r.nodeCount()).isNull();

    Request.SessionControl choose =
        AllocationOps.sessionControl(
            ID, TOOL, 5, List.of(Info.of(PmixKeys.ALLOC_NUM_NODES, Value.uint64(2))));
    assertThat(choose.nodeCount()).as("asks the DVM to choose: the core refuses").isNotNull();
    assertThat(
            refusal(
                () ->
                    AllocationOps.sessionControl(
                        ID,
                        TOOL,
                        5,
                        List.of(Info.of(PmixKeys.ALLOC_NODE_LIST, Value.string("n1:zero"))))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(
            refusal(
                () ->
                    AllocationOps.sessionControl(
                        ID,
                        TOOL,
                        5,
                        List.of(
                            Info.of(
                                PmixKeys.SESSION_JOB, Value.array(DataArray.ofInfos(List.of())))))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void jobControlActsOnWholeJobsOnly() throws Exception {
    var actions =
        JobOps.jobControl(
            TOOL,
            List.of(Proc.wildcard("d@2"), Proc.wildcard("d@3"), Proc.wildcard("d@2")),
            List.of(Info.of("pmix.jctrl.sig", Value.integer(15))));
    assertThat(actions)
        .containsExactly(
            new JobOps.JobAction("d@2", 15, false), new JobOps.JobAction("d@3", 15, false));
    assertThat(
            refusal(
                () ->
                    JobOps.jobControl(
                        TOOL,
                        List.of(new Proc("d@2", 0)),
                        List.of(Info.of("pmix.jctrl.kill", Value.bool(true))))))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(refusal(() -> JobOps.jobControl(TOOL, List.of(Proc.wildcard("d@2")), List.of())))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    // properties alone are a request the DVM does not serve, not a malformed one (BAD_PARAM before)
    assertThat(
            refusal(
                () ->
                    JobOps.jobControl(
                        TOOL,
                        List.of(Proc.wildcard("d@2")),
                        List.of(Info.of("pmix.jctrl.preempt", Value.bool(true))))))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
  }

  @Test
  void inheritanceGoesToA41PeerAsUint8() {
    List<Info> infos =
        List.of(Info.of(PmixKeys.ALLOC_INHERITANCE, Value.inheritance(AllocInheritance.NONE)));
    assertThat(PeerFormat.infos(infos, WireFormat.V41).get(0).value()).isEqualTo(Value.uint8(1));
    assertThat(PeerFormat.infos(infos, WireFormat.V61)).isSameAs(infos);
  }

  /**
   * Seeded: any value of any type under any key the translator reads yields a request or a refusal
   * with BAD_PARAM or NOT_SUPPORTED, never anything else.
   */
  @Test
  void anyValueUnderAnyKeyIsARequestOrACleanRefusal() {
    long seed = Long.getLong("jdvm.seed", System.nanoTime());
    Random random = new Random(seed);
    List<String> keys =
        List.of(
            PmixKeys.ALLOC_TARGET,
            PmixKeys.ALLOC_SHARE,
            PmixKeys.ALLOC_INHERITANCE,
            PmixKeys.ALLOC_ID,
            PmixKeys.ALLOC_REQ_ID,
            PmixKeys.ALLOC_NUM_NODES,
            PmixKeys.ALLOC_NODE_LIST,
            PmixKeys.ALLOC_TIME,
            PmixKeys.ALLOC_WARN_TIMEOUT,
            PmixKeys.ALLOC_LEND,
            PmixKeys.ALLOC_CHILD_SEP,
            PmixKeys.SPAWN_TARGET,
            PmixKeys.SESSION_ID,
            PmixKeys.MAPBY,
            PmixKeys.NOTIFY_COMPLETION,
            PmixKeys.SESSION_SIGNAL,
            PmixKeys.SESSION_RESOURCES,
            PmixKeys.SESSION_APP,
            PmixKeys.TIMEOUT,
            PmixKeys.NSPACE,
            "pmix.jctrl.sig",
            "pmix.jctrl.term");
    List<Value> values =
        List.of(
            Value.bool(true),
            Value.string("1:2"),
            Value.string(null),
            Value.uint8(200),
            Value.uint32(0xFFFF_FFFFL),
            Value.uint64(-1),
            Value.int32(-7),
            Value.status(-46),
            Value.proc(TOOL),
            Value.inheritance(AllocInheritance.CHILD),
            Value.array(DataArray.ofStrings(List.of("a", "b"))),
            Value.array(DataArray.ofInfos(List.of(Info.of("k", Value.bool(false))))),
            Value.array(DataArray.of(DataType.PROC, List.of(TOOL))));
    App app = new App("true", List.of("true"), List.of(), null, 1, List.of());
    for (int round = 0; round < 2000; round++) {
      List<Info> infos = new ArrayList<>();
      for (int n = random.nextInt(4); n >= 0; n--) {
        infos.add(
            new Info(
                keys.get(random.nextInt(keys.size())),
                random.nextInt(4),
                values.get(random.nextInt(values.size()))));
      }
      String context = "seed " + seed + " round " + round + ": " + infos;
      for (int which = 0; which < 4; which++) {
        try {
          switch (which) {
            case 0 -> AllocationOps.allocate(ID, TOOL, 1 + random.nextInt(5), infos);
            case 1 -> JobOps.spawn(ID, TOOL, random.nextBoolean(), infos, List.of(app));
            case 2 -> AllocationOps.sessionControl(ID, TOOL, 3, infos);
            default -> JobOps.jobControl(TOOL, List.of(Proc.wildcard("d@2")), infos);
          }
        } catch (BadRequest e) {
          assertThat(e.status())
              .as(context)
              .isIn(PmixStatus.ERR_BAD_PARAM, PmixStatus.ERR_NOT_SUPPORTED);
        } catch (RuntimeException e) {
          throw new AssertionError("translation " + which + " threw for " + context, e);
        }
      }
    }
  }
}
