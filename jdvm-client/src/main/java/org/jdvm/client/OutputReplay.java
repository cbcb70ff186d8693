package org.jdvm.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.IofPullRequest;

/**
 * What {@code jdvm output JOB [--follow]} learned ({@link JdvmClient#replayOutput}): the job's kept
 * output went to the client's {@link OutputHandler} first, each line labelled as {@code
 * --tag-output} labels it ({@code [JOB,RANK]<stdout>: }); then these facts came.
 *
 * @param droppedBytes bytes of the job's output the DVM did not keep (its oldest; 0: none)
 * @param writtenBytes every byte of its output so far, the dropped ones included
 * @param end completes with the job's end: at once when it had ended already, when it ends for a
 *     follow (after its last output reached the handler), never for a replay of a running job
 */
public record OutputReplay(long droppedBytes, long writtenBytes, CompletableFuture<JobEnd> end) {
  private static final AtomicLong LOCAL_IDS = new AtomicLong();

  /** Sends the replay's pull; see {@link JdvmClient#replayOutput}. */
  static CompletableFuture<OutputReplay> ask(
      JdvmClient client, Inbox inbox, String nspace, boolean follow) {
    CompletableFuture<JobEnd> end = new CompletableFuture<>();
    Registration watch = null;
    if (follow) {
      // Local only: the DVM tells a follower of its job's end whatever it registered.
      watch =
          new Registration(
              client,
              List.of(PmixStatus.EVENT_JOB_END),
              e -> {
                JobEnd je = Inbox.jobEnd(e);
                if (je != null && je.nspace().equals(nspace)) {
                  end.complete(je);
                }
              },
              false);
      inbox.registrations.add(watch);
      Registration w = watch;
      end.whenComplete((ok, t) -> inbox.registrations.remove(w));
    }
    inbox.format(nspace, OutputFormat.tagged());
    List<Info> directives = new ArrayList<>();
    directives.add(Info.of(JdvmProtocol.IOF_REPLAY, Value.bool(true)));
    directives.add(Info.of(JdvmProtocol.IOF_FOLLOW, Value.bool(follow)));
    byte[] body =
        new IofPullRequest(
                List.of(Proc.wildcard(nspace)), directives, 0x06, LOCAL_IDS.incrementAndGet())
            .write(client.format());
    CompletableFuture<OutputReplay> f =
        client.call(
            body,
            in -> {
              int status = in.unpackStatus();
              if (status != PmixStatus.SUCCESS) {
                throw new PmixException(status, "the output of " + nspace + " was refused");
              }
              in.unpackSize();
              return facts(in.unpackInfos(), nspace, end);
            });
    Registration w = watch;
    f.whenComplete(
        (ok, t) -> {
          if (t != null && w != null) {
            inbox.registrations.remove(w);
          }
        });
    return f;
  }

  private static OutputReplay facts(
      List<Info> infos, String nspace, CompletableFuture<JobEnd> end) {
    long dropped = 0;
    long written = 0;
    boolean ended = false;
    int status = PmixStatus.SUCCESS;
    int exit = 0;
    for (Info i : infos) {
      switch (i.key()) {
        case JdvmProtocol.IOF_DROPPED -> dropped = i.value().asLong();
        case JdvmProtocol.IOF_WRITTEN -> written = i.value().asLong();
        case JdvmProtocol.IOF_ENDED -> ended = Boolean.TRUE.equals(i.value().data());
        case PmixKeys.JOB_TERM_STATUS -> status = (int) i.value().asLong();
        case PmixKeys.EXIT_CODE -> exit = (int) i.value().asLong();
        default -> {}
      }
    }
    if (ended) {
      end.complete(new JobEnd(nspace, status, exit));
    }
    return new OutputReplay(dropped, written, end);
  }
}
