package org.jdvm.server.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jdvm.core.Command;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/journal.md "Durability": the controller writes every outcome before its effects run, commits
 * before executing them (several queued commands share a commit when the journal groups commits),
 * and stops the DVM, executing nothing more, when the journal cannot be written.
 */
class ControllerJournalTest {
  private final Core core = new Core(CoreConfig.of("jdvm", List.of(new NodeSpec("n0", 4))));
  private final List<String> order = new CopyOnWriteArrayList<>();
  private final List<Throwable> fatal = new CopyOnWriteArrayList<>();
  private Controller controller;

  @AfterEach
  void close() {
    if (controller != null) {
      controller.close();
    }
  }

  /** A journal that logs what it is asked to do, groups commits if asked, and may fail. */
  private final class Recording implements Controller.Journal {
    final boolean groups;
    volatile RuntimeException failCommit;

    Recording(boolean groups) {
      this.groups = groups;
    }

    @Override
    public void record(Command command, Outcome outcome, long nowNs) {
      order.add("record");
    }

    @Override
    public void commit() {
      if (failCommit != null) {
        throw failCommit;
      }
      order.add("commit");
    }

    @Override
    public boolean groupsCommits() {
      return groups;
    }

    @Override
    public void dispatched() {
      order.add("dispatched");
    }
  }

  private Controller start(Recording journal, CountDownLatch effectsMayRun) {
    controller =
        new Controller(
            core,
            System::nanoTime,
            effects -> {
              await(effectsMayRun);
              for (Effect e : effects) {
                order.add("effect");
              }
            },
            fatal::add);
    controller.journal(journal);
    controller.start();
    return controller;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Request.RegisterTool tool(long id) {
    return new Request.RegisterTool(new RequestId(id), null);
  }

  @Test
  void eachOutcomeIsRecordedAndCommittedBeforeItsEffectsRun() throws Exception {
    CountDownLatch open = new CountDownLatch(0);
    start(new Recording(false), open);
    controller.submit(tool(1)).get(20, TimeUnit.SECONDS);
    controller.submit(tool(2)).get(20, TimeUnit.SECONDS);
    assertThat(order)
        .containsExactly(
            "record", "commit", "effect", "dispatched", "record", "commit", "effect", "dispatched");
  }

  @Test
  void commandsWaitingInTheQueueShareOneCommitWhenTheJournalGroupsCommits() throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    start(new Recording(true), held);
    // The first command's effects block, so the next ones queue up behind it.
    CompletableFuture<Outcome> first = controller.submit(tool(1));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!order.contains("commit") && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    List<CompletableFuture<Outcome>> queued = new java.util.ArrayList<>();
    for (int i = 2; i <= 5; i++) {
      queued.add(controller.submit(tool(i)));
    }
    held.countDown();
    first.get(20, TimeUnit.SECONDS);
    for (CompletableFuture<Outcome> f : queued) {
      f.get(20, TimeUnit.SECONDS);
    }
    long commits = order.stream().filter("commit"::equals).count();
    assertThat(order.stream().filter("record"::equals).count()).isEqualTo(5);
    assertThat(commits).as(order.toString()).isLessThan(5).isGreaterThanOrEqualTo(2);
    // Every effect comes after the commit that covers it.
    int lastCommit = order.lastIndexOf("commit");
    assertThat(order.subList(lastCommit, order.size())).contains("effect");
  }

  @Test
  void aJournalThatCannotBeWrittenStopsTheDvmAndNoEffectOfTheCommandRuns() throws Exception {
    Recording journal = new Recording(false);
    journal.failCommit = new UncheckedIOException(new java.io.IOException("disk full"));
    start(journal, new CountDownLatch(0));
    CompletableFuture<Outcome> f = controller.submit(tool(1));
    assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasRootCauseMessage("disk full");
    assertThat(order).doesNotContain("effect");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (fatal.isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(fatal).hasSize(1);
    assertThatThrownBy(() -> controller.submit(tool(2)).get(20, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class);
  }
}
