package org.jdvm.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
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
import org.jdvm.pmix.Value;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.jdvm.pmix.frame.Tags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job spawned by a process of a running job, as {@code MPI_Comm_spawn} does it (docs/protocol.md
 * "How jdvm reads the standard commands"): its output reaches the tool that ran the parent job, the
 * parent job's end reaches that tool only after the child job ended, and the child's ranks know
 * their parent ({@code pmix.parent}). And {@code PMIx_Log} of a job nobody follows goes to the
 * DVM's log.
 */
class SpawnFromAJobTest {
  @TempDir Path home;
  private EndpointFixture f;

  @BeforeEach
  void start() throws IOException {
    f = new EndpointFixture(home, 1, 4, 0);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static App app(String... argv) {
    return new App(argv[0], List.of(argv), List.of(), null, 1, List.of());
  }

  private static String spawn(RawPeer peer, List<Info> infos, App app) throws IOException {
    int tag = peer.request(Commands.SPAWNNB_CMD, p -> p.packInfos(infos).packApps(List.of(app)));
    Unpacker r = peer.reply(tag).body();
    assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
    return r.unpackString();
  }

  /** A client acting as rank 0 of a running job. */
  private RawPeer rank0(String job) throws IOException {
    Await.until(
        () -> f.read(v -> v.job(job).orElseThrow().state() == JobView.State.RUNNING), "launch");
    Info cred =
        Info.of(JdvmProtocol.CREDENTIAL, Value.string(f.credentials.procCredential(job, 0)));
    RawPeer c = RawPeer.client(f.endpoint.tcpAddress(), new Proc(job, 0), List.of(cred));
    assertThat(c).isNotNull();
    return c;
  }

  private JobView.State state(String job) {
    return f.read(v -> v.job(job).map(JobView::state).orElse(JobView.State.TERMINATED));
  }

  @Test
  void aChildJobsOutputReachesTheParentsToolWhichHearsTheParentEndOnlyAfterTheChild()
      throws IOException {
    try (RawPeer tool = RawPeer.tool(f.endpoint.tcpAddress())) {
      String parent =
          spawn(
              tool,
              List.of(Info.of(PmixKeys.NOTIFY_COMPLETION, Value.bool(true))),
              app("sleep", "60"));
      String child;
      try (RawPeer p0 = rank0(parent)) {
        child = spawn(p0, List.of(), app("sh", "-c", "echo child-out; exec sleep 60"));
      }
      StringBuilder childOut = new StringBuilder();
      while (!childOut.toString().contains("child-out\n")) {
        RawPeer.Frame frame = tool.read();
        if (frame.tag() == Tags.IOF) {
          Unpacker io = frame.body();
          assertThat(io.unpackProc()).isEqualTo(new Proc(child, 0));
          io.unpackInteger(DataType.IOF_CHANNEL);
          io.unpackSize();
          io.unpackSize();
          ByteObject b = (ByteObject) io.unpackOne(DataType.BYTE_OBJECT);
          childOut.append(new String(b.toByteArray(), StandardCharsets.UTF_8));
        }
      }
      List<String> seen = new ArrayList<>();
      terminate(tool, parent, seen);
      Await.until(() -> state(parent) == JobView.State.TERMINATED, "the parent's end");
      terminate(tool, child, seen);
      while (seen.isEmpty()) {
        RawPeer.Frame frame = tool.read();
        if (frame.tag() == Tags.NOTIFY) {
          seen.add(jobEnd(frame) + " child=" + state(child));
        }
      }
      assertThat(seen)
          .as("the parent's end, held until the child ended")
          .containsExactly("PMIX_EVENT_JOB_END child=TERMINATED");
    }
  }

  /** Terminates a job; events that arrive before the reply are noted with the child's state. */
  private void terminate(RawPeer tool, String job, List<String> seen) throws IOException {
    int tag =
        tool.request(
            Commands.JOB_CONTROL_CMD,
            p ->
                p.packSize(1)
                    .pack(DataType.PROC, Proc.wildcard(job))
                    .packInfos(List.of(Info.of(PmixKeys.JOB_CTRL_TERMINATE, Value.bool(true)))));
    while (true) {
      RawPeer.Frame frame = tool.read();
      if (frame.tag() == tag) {
        assertThat(frame.body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
        return;
      }
      if (frame.tag() == Tags.NOTIFY) {
        seen.add(jobEnd(frame) + " while terminating " + job);
      }
    }
  }

  private static String jobEnd(RawPeer.Frame frame) {
    Unpacker e = frame.body();
    assertThat(e.unpackCommand()).isEqualTo(Commands.NOTIFY_CMD);
    return PmixStatus.name(e.unpackStatus());
  }

  /**
   * A child job's end is {@code PMIX_EVENT_NON_DEFAULT}, as PRRTE sends it (state_dvm.c): a rank
   * with only a default handler (Open MPI's, which aborts on any event it is given: the -62 of
   * mpi4py's spawn tests) does not hear it; a spawn with {@code PMIX_NOTIFY_COMPLETION} does, and
   * the event says it is for no default handler.
   */
  @Test
  void aChildJobsEndPassesADefaultHandlerByAndReachesOnlyWhoAskedForIt() throws IOException {
    try (RawPeer tool = RawPeer.tool(f.endpoint.tcpAddress())) {
      String parent = spawn(tool, List.of(), app("sleep", "60"));
      try (RawPeer p0 = rank0(parent)) {
        int reg = p0.request(Commands.REGEVENTS_CMD, p -> p.packSize(0).packSize(0));
        assertThat(p0.reply(reg).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
        String unasked = spawn(p0, List.of(), app("true"));
        Await.until(() -> state(unasked) == JobView.State.TERMINATED, "the first child's end");
        int tag =
            p0.request(
                Commands.SPAWNNB_CMD,
                p ->
                    p.packInfos(List.of(Info.of(PmixKeys.NOTIFY_COMPLETION, Value.bool(true))))
                        .packApps(List.of(app("true"))));
        String asked = null;
        List<List<Info>> ends = new ArrayList<>();
        while (asked == null || !ended(ends).contains(asked)) {
          RawPeer.Frame frame = p0.read();
          if (frame.tag() == tag) {
            Unpacker r = frame.body();
            assertThat(r.unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
            asked = r.unpackString();
          } else if (frame.tag() == Tags.NOTIFY) {
            Unpacker e = frame.body();
            assertThat(e.unpackCommand()).isEqualTo(Commands.NOTIFY_CMD);
            assertThat(e.unpackStatus()).isEqualTo(PmixStatus.EVENT_JOB_END);
            e.unpackProc();
            ends.add(e.unpackInfos());
          }
        }
        assertThat(ends).as("the only end heard: the one asked for").hasSize(1);
        assertThat(ends.get(0))
            .contains(Info.of(PmixKeys.EVENT_AFFECTED_PROC, Value.proc(Proc.wildcard(asked))))
            .contains(Info.of(PmixKeys.EVENT_NON_DEFAULT, Value.bool(true)));
      }
    }
  }

  /** The namespaces whose end these events announce. */
  private static List<String> ended(List<List<Info>> events) {
    List<String> out = new ArrayList<>();
    for (List<Info> infos : events) {
      for (Info i : infos) {
        if (i.key().equals(PmixKeys.EVENT_AFFECTED_PROC)) {
          out.add(((Proc) i.value().data()).nspace());
        }
      }
    }
    return out;
  }

  @Test
  void aChildJobsRanksKnowTheProcessThatSpawnedThem() throws IOException {
    try (RawPeer tool = RawPeer.tool(f.endpoint.tcpAddress())) {
      String parent = spawn(tool, List.of(), app("sleep", "60"));
      String child;
      try (RawPeer p0 = rank0(parent)) {
        child = spawn(p0, List.of(), app("sleep", "60"));
      }
      try (RawPeer c0 = rank0(child)) {
        int req = c0.request(Commands.REQ_CMD, p -> {});
        Unpacker r = c0.reply(req).body();
        assertThat(r.unpackString()).isEqualTo(child);
        List<KVal> jobLevel = new ArrayList<>();
        while (r.hasRemaining()) {
          jobLevel.add((KVal) r.unpackOne(DataType.KVAL));
        }
        // The parent is job-level data: every rank of the child has the same one.
        assertThat(jobLevel)
            .contains(new KVal(PmixKeys.PARENT_ID, Value.proc(new Proc(parent, 0))));
      }
    }
  }

  @Test
  void whatAJobNobodyFollowsLogsGoesToTheDvmsLog() throws IOException {
    List<String> logged = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            logged.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger jul = Logger.getLogger(org.jdvm.endpoint.deliver.OutputRouter.PEER_LOGGER);
    jul.addHandler(capture);
    try (RawPeer tool = RawPeer.tool(f.endpoint.tcpAddress())) {
      List<Info> quiet =
          List.of(
              Info.of(PmixKeys.FWD_STDOUT, Value.bool(false)),
              Info.of(PmixKeys.FWD_STDERR, Value.bool(false)));
      String job = spawn(tool, quiet, app("sleep", "60"));
      try (RawPeer r0 = rank0(job)) {
        List<Info> data = new ArrayList<>();
        data.add(Info.of(PmixKeys.LOG_STDERR, Value.string("nobody-hears-this")));
        int tag =
            r0.request(
                Commands.LOG_CMD,
                p -> p.packInteger(DataType.TIME, 0).packInfos(data).packInfos(List.of()));
        assertThat(r0.reply(tag).body().unpackStatus()).isEqualTo(PmixStatus.SUCCESS);
      }
      Await.until(
          () -> logged.stream().anyMatch(m -> m.contains("log=\"nobody-hears-this\"")),
          "the line in the DVM's log");
    } finally {
      jul.removeHandler(capture);
    }
  }
}
