package org.jdvm.endpoint.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.MapBy;
import org.jdvm.core.Outcome;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.RequestId;
import org.jdvm.endpoint.transport.Connection;
import org.jdvm.endpoint.transport.Peer;
import org.jdvm.host.ProcListener;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.frame.FrameHeader;
import org.jdvm.pmix.frame.Tags;
import org.junit.jupiter.api.Test;

/**
 * A formatted spawn's output waits for the spawn's answer; a job quick enough to end before that
 * must still have its output reach the tool before its end does, or {@code jdvm run echo -n x}
 * returns before printing (RunEnvTest.optionsAfterTheProgramAreItsOwn printed "2 x" after the
 * command had returned, in a loaded clean-clone run).
 */
class JobEndAfterOutputTest {
  private static final Proc TOOL = new Proc("d@1", 0);
  private static final String JOB = "d@2";

  @Test
  void aQuickJobsEndReachesItsToolAfterItsOutput() throws Exception {
    List<Integer> tags = new ArrayList<>();
    Connection tool = tool(tags);
    EventRouter events = new EventRouter(new Proc("d@0", 0));
    events.add(tool);
    OutputRouter output = new OutputRouter();
    OutcomeWatcher watcher = watcher(events, output);
    RequestId id = new RequestId(7);
    watcher.expectSpawn(
        id,
        new OutcomeWatcher.SpawnIntent(
            tool, OutputRouter.STDOUT_CHANNEL, true, new JobOutput(null, false, true)));

    // The rank writes and ends before the spawn is answered.
    output.output(JOB, 0, ProcListener.Stream.STDOUT, "2 x".getBytes(StandardCharsets.UTF_8));
    watcher.observed(outcome(spawned(id)));
    watcher.observed(outcome(new Change.ProcsEnded(JOB, List.of(0), ProcEnd.exited(0, 0))));
    watcher.observed(outcome(new Change.JobTerminated(JOB, PmixStatus.SUCCESS, 0)));
    jobEnd(events);
    watcher.spawnReplied(id, true);
    awaitTags(tags, 2);
    synchronized (tags) {
      assertThat(tags).as("the output, then the end").containsExactly(Tags.IOF, Tags.NOTIFY);
    }
  }

  @Test
  void aRanksLastPartialLineGoesOutBeforeItsJobsEndWhichIsSentBeforeTheRanksEndIsObserved()
      throws Exception {
    // The controller executes a command's effects (the job's end to its tool) before the endpoint
    // observes its changes (the rank's end, which releases its held partial line).
    List<Integer> tags = new ArrayList<>();
    Connection tool = tool(tags);
    EventRouter events = new EventRouter(new Proc("d@0", 0));
    events.add(tool);
    OutputRouter output = new OutputRouter();
    events.beforeJobEnd(output::jobEnded);
    OutcomeWatcher watcher = watcher(events, output);
    RequestId id = new RequestId(9);
    watcher.expectSpawn(
        id, new OutcomeWatcher.SpawnIntent(tool, OutputRouter.STDOUT_CHANNEL, true));
    watcher.observed(outcome(spawned(id)));
    output.output(JOB, 0, ProcListener.Stream.STDOUT, "2 x".getBytes(StandardCharsets.UTF_8));
    jobEnd(events);
    watcher.observed(outcome(new Change.ProcsEnded(JOB, List.of(0), ProcEnd.exited(0, 0))));
    awaitTags(tags, 2);
    synchronized (tags) {
      assertThat(tags).as("the output, then the end").containsExactly(Tags.IOF, Tags.NOTIFY);
    }
  }

  @Test
  void aJobRetiredBeforeItsSpawnWasAnsweredNoLongerHoldsItsEnd() throws Exception {
    List<Integer> tags = new ArrayList<>();
    Connection tool = tool(tags);
    EventRouter events = new EventRouter(new Proc("d@0", 0));
    events.add(tool);
    OutcomeWatcher watcher = watcher(events, new OutputRouter());
    RequestId id = new RequestId(8);
    watcher.expectSpawn(
        id,
        new OutcomeWatcher.SpawnIntent(
            tool, OutputRouter.STDOUT_CHANNEL, true, new JobOutput(null, false, true)));
    watcher.observed(outcome(spawned(id)));
    watcher.observed(outcome(new Change.JobRetired(JOB)));
    jobEnd(events);
    awaitTags(tags, 1);
    synchronized (tags) {
      assertThat(tags)
          .as("the end, not held for an answer that will not come")
          .contains(Tags.NOTIFY);
    }
  }

  private static void jobEnd(EventRouter events) {
    events.directed(
        TOOL,
        PmixStatus.EVENT_JOB_END,
        new Proc("d@0", 0),
        List.of(
            Info.of(PmixKeys.EVENT_AFFECTED_PROC, Value.proc(Proc.wildcard(JOB))),
            Info.of(PmixKeys.EVENT_NON_DEFAULT, Value.bool(true))));
  }

  private static void awaitTags(List<Integer> tags, int n) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      synchronized (tags) {
        if (tags.size() >= n) {
          return;
        }
      }
      Thread.sleep(5);
    }
  }

  private static Connection tool(List<Integer> tags) {
    Connection tool =
        Connection.carried(
            new Connection.Handler() {
              @Override
              public Peer admit(Connection c, org.jdvm.pmix.frame.ConnectRequest r) {
                return null;
              }

              @Override
              public void message(Connection c, int tag, byte[] body) {}

              @Override
              public void closed(Connection c) {}
            },
            1,
            new Connection.Outlet() {
              @Override
              public void write(List<byte[]> messages) {
                synchronized (tags) {
                  for (byte[] m : messages) {
                    tags.add(FrameHeader.decode(m, 0).tag());
                  }
                }
              }

              @Override
              public void close() {}
            });
    tool.admitted(new Peer(TOOL, Peer.Role.TOOL, WireFormat.V41));
    return tool;
  }

  private static OutcomeWatcher watcher(EventRouter events, OutputRouter output) {
    return new OutcomeWatcher(
        events,
        output,
        new OutcomeWatcher.JobLife() {
          @Override
          public void spawned(String nspace, Proc spawner) {}

          @Override
          public void procsEnded(String nspace, List<Integer> ranks) {}

          @Override
          public void ended(String nspace) {}
        });
  }

  private static Outcome outcome(Change c) {
    return new Outcome(List.of(c), List.of(), null, Outcome.NO_DEADLINE);
  }

  private static Change.JobSpawned spawned(RequestId id) {
    return new Change.JobSpawned(
        JOB, "d@1", TOOL, id, List.of(), List.of(), List.of(), MapBy.SLOT, false, null, null);
  }
}
