package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;

/**
 * The client's inbox completes each job it spawned exactly when the DVM reports the job's end, in
 * whichever order the end and the spawn's reply arrive.
 */
class InboxTest {
  private static Unpacker jobEnd(String nspace, int exitCode) throws Exception {
    byte[] body =
        new Packer(WireFormat.V41)
            .packCommand(Commands.NOTIFY_CMD)
            .packStatus(PmixStatus.EVENT_JOB_END)
            .packProc(new Proc("dvm", 0))
            .packInfos(
                List.of(
                    Info.of(PmixKeys.EVENT_AFFECTED_PROC, Value.proc(Proc.wildcard(nspace))),
                    Info.of(PmixKeys.JOB_TERM_STATUS, Value.status(PmixStatus.SUCCESS)),
                    Info.of(PmixKeys.EXIT_CODE, Value.integer(exitCode))))
            .packInteger(DataType.DATA_RANGE, DataRange.CUSTOM.code())
            .toByteArray();
    return new Unpacker(WireFormat.V41, body);
  }

  @Test
  void aJobWhoseEndArrivesBeforeItsSpawnReplyEndsWhenTheReplyComes() throws Exception {
    Inbox inbox = new Inbox(OutputHandler.DISCARD);
    inbox.event(jobEnd("dvm@7", 3)); // a /bin/true can exit before its launch is reported

    Job job = new Job("dvm@7");
    inbox.spawned(job);

    assertThat(job.end().get(10, TimeUnit.SECONDS).exitCode()).isEqualTo(3);
    assertThat(inbox.jobs).isEmpty();
  }

  @Test
  void aJobEndsOnceWhenItsEndComesAfterTheReplyAndAStrayEndChangesNothing() throws Exception {
    Inbox inbox = new Inbox(OutputHandler.DISCARD);
    Job job = new Job("dvm@8");
    inbox.spawned(job);
    assertThat(job.end()).isNotDone();

    inbox.event(jobEnd("dvm@8", 0));
    assertThat(job.end().get(10, TimeUnit.SECONDS).exitCode()).isZero();
    inbox.event(jobEnd("dvm@8", 5)); // reported again: nothing is waiting for it
    assertThat(job.end().get().exitCode()).isZero();
  }

  @Test
  void anEndNoOneAskedTheFutureOfStartsNoDeliveryThreadAndALaterAskFindsItDone() throws Exception {
    Inbox inbox = new Inbox(OutputHandler.DISCARD);
    Job job = new Job("dvm@9");
    inbox.spawned(job);
    inbox.event(jobEnd("dvm@9", 4));
    assertThat(job.awaitEnd().exitCode()).isEqualTo(4);
    assertThat(inbox.delivered()).as("the end needed no hand-off").isFalse();
    assertThat(job.end()).isCompletedWithValueMatching(e -> e.exitCode() == 4);
  }

  @Test
  void anEndWhoseFutureWasAskedForCompletesItOnTheDeliveryThread() throws Exception {
    Inbox inbox = new Inbox(OutputHandler.DISCARD);
    Job job = new Job("dvm@10");
    inbox.spawned(job);
    java.util.concurrent.CompletableFuture<String> ranOn =
        job.end().thenApply(e -> Thread.currentThread().getName());
    inbox.event(jobEnd("dvm@10", 0));
    assertThat(ranOn.get(10, TimeUnit.SECONDS)).isEqualTo("jdvm-client-delivery");
    assertThat(job.awaitEnd().exitCode()).isZero();
  }

  @Test
  void endsOfJobsNeverSpawnedHereAreKeptOnlyUpToTheirBound() throws Exception {
    Inbox inbox = new Inbox(OutputHandler.DISCARD);
    for (int i = 0; i < Inbox.EARLY_ENDS + 10; i++) {
      inbox.event(jobEnd("other@" + i, 0));
    }
    // The oldest were dropped: a spawn reply for one of them now waits for its own end.
    Job oldest = new Job("other@0");
    inbox.spawned(oldest);
    assertThat(oldest.end()).isNotDone();
    Job newest = new Job("other@" + (Inbox.EARLY_ENDS + 9));
    inbox.spawned(newest);
    assertThat(newest.end().get(10, TimeUnit.SECONDS).exitCode()).isZero();
  }
}
