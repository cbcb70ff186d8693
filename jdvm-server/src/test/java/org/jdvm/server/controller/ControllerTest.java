package org.jdvm.server.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jdvm.core.Command;
import org.jdvm.core.CommandFailed;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.engine.Core;
import org.jdvm.core.query.CoreView;
import org.jdvm.host.Await;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The controller's two branches, decided by {@link Failure}: refuse the command and go on, or stop
 * the DVM visibly. Never a silent death of its thread, never a waiter left hanging.
 */
class ControllerTest {
  private final Core core = new Core(CoreConfig.of("jdvm", List.of(new NodeSpec("n0", 4))));
  private final List<Effect> executed = new CopyOnWriteArrayList<>();
  private final List<Throwable> fatal = new CopyOnWriteArrayList<>();
  private Controller controller;

  @AfterEach
  void close() {
    if (controller != null) {
      controller.close();
    }
  }

  private Controller start(Controller.Engine engine) {
    controller = new Controller(engine, System::nanoTime, executed::addAll, fatal::add);
    controller.start();
    return controller;
  }

  /** The real core, except that {@code failure} decides what it throws on a command (or null). */
  private Controller.Engine failing(Function<Command, Throwable> failure) {
    return new Controller.Engine() {
      @Override
      public Outcome handle(Command command, long nowNs) {
        Throwable t = failure.apply(command);
        if (t instanceof RuntimeException r) {
          throw r;
        } else if (t instanceof Error e) {
          throw e;
        }
        return core.handle(command, nowNs);
      }

      @Override
      public CoreView view() {
        return core.view();
      }
    };
  }

  private static Request.RegisterTool tool(long id) {
    return new Request.RegisterTool(new RequestId(id), null);
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(20, TimeUnit.SECONDS);
  }

  @Test
  void theTableRefusesWhatFailedBeforeAnyChangeAndStopsOnEverythingElse() {
    Command c = new Report.Tick();
    assertThat(Failure.of(new CommandFailed(c, new IllegalArgumentException())))
        .isEqualTo(Failure.BAD_INPUT);
    assertThat(Failure.of(new CommandFailed(c, new IllegalStateException())))
        .isEqualTo(Failure.NOT_DECIDED);
    assertThat(Failure.of(new OutOfMemoryError())).isEqualTo(Failure.JVM_FAILED);
    assertThat(Failure.of(new StackOverflowError())).isEqualTo(Failure.JVM_FAILED);
    assertThat(Failure.of(new AssertionError())).isEqualTo(Failure.OTHER_ERROR);
    assertThat(Failure.of(new IllegalStateException())).isEqualTo(Failure.BROKEN_STATE);
    assertThat(Failure.of(new IllegalArgumentException()))
        .as("thrown by the core after changes, even a contract violation cannot be refused")
        .isEqualTo(Failure.BROKEN_STATE);
    assertThat(Failure.BAD_INPUT.verdict()).isEqualTo(Failure.Verdict.REFUSE);
    assertThat(Failure.NOT_DECIDED.verdict()).isEqualTo(Failure.Verdict.REFUSE);
    assertThat(List.of(Failure.JVM_FAILED, Failure.OTHER_ERROR, Failure.BROKEN_STATE))
        .allMatch(f -> f.verdict() == Failure.Verdict.STOP);
  }

  @Test
  void aRequestTheCoreFailedOnBeforeChangingAnythingIsAnsweredWithItsStatusAndTheDvmGoesOn()
      throws Exception {
    start(
        failing(
            c ->
                c instanceof Request.RegisterTool r && r.requestId().value() == 1
                    ? new CommandFailed(c, new IllegalArgumentException("malformed"))
                    : null));
    Outcome refused = get(controller.submit(tool(1)));
    assertThat(refused.rejection()).isEqualTo(Failure.BAD_INPUT);
    assertThat(executed)
        .containsExactly(new Effect.Reply(new RequestId(1), PmixStatus.ERR_BAD_PARAM, List.of()));
    Outcome next = get(controller.submit(tool(2)));
    assertThat(next.rejected()).isFalse();
    assertThat(fatal).isEmpty();
  }

  @Test
  void aReportTheCoreRejectsAsMalformedFailsAloneAndTheDvmGoesOn() throws Exception {
    start(failing(c -> null));
    CompletableFuture<Outcome> lost = controller.submit(new Report.NodeLost("n0"));
    assertThatThrownBy(() -> get(lost))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(CommandFailed.class)
        .cause()
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(get(controller.submit(tool(1))).rejected()).isFalse();
    assertThat(fatal).isEmpty();
  }

  @Test
  void aBrokenInvariantAfterChangesStopsTheDvmOnceAndAnswersEveryWaiter() throws Exception {
    CountDownLatch queued = new CountDownLatch(1);
    AtomicInteger handled = new AtomicInteger();
    start(
        failing(
            c -> {
              handled.incrementAndGet();
              if (c instanceof Request.RegisterTool r && r.requestId().value() == 1) {
                try {
                  queued.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                return new IllegalStateException("core invariant broken: test");
              }
              return null;
            }));
    CompletableFuture<Outcome> broken = controller.submit(tool(1));
    CompletableFuture<Outcome> behind = controller.submit(tool(2));
    CompletableFuture<Integer> read = controller.read(v -> v.nodes().size());
    queued.countDown();
    assertThatThrownBy(() -> get(broken)).hasCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> get(behind)).hasMessageContaining("DVM stopped");
    assertThatThrownBy(() -> get(read)).hasMessageContaining("DVM stopped");
    Await.until(() -> fatal.size() == 1, "the DVM to be stopped");
    assertThat(handled).as("nothing is handled after the failure").hasValue(1);
    assertThatThrownBy(() -> get(controller.submit(tool(3)))).hasMessageContaining("stopped");
  }

  @Test
  void anOutOfMemoryErrorStopsTheDvmVisiblyRatherThanKillingTheThreadSilently() throws Exception {
    start(failing(c -> c instanceof Request ? new OutOfMemoryError("test") : null));
    assertThatThrownBy(() -> get(controller.submit(tool(1))))
        .hasCauseInstanceOf(OutOfMemoryError.class);
    Await.until(() -> fatal.size() == 1, "the DVM to be stopped");
    assertThat(fatal.get(0)).isInstanceOf(OutOfMemoryError.class);
    assertThatThrownBy(() -> get(controller.read(CoreView::tornDown)))
        .as("a submission after the stop is answered, not left hanging")
        .hasMessageContaining("stopped");
  }

  @Test
  void anErrorWhileExecutingEffectsStopsTheDvmAndTheWaiterLearnsOfIt() throws Exception {
    controller =
        new Controller(
            core,
            System::nanoTime,
            effects -> {
              throw new StackOverflowError("test");
            },
            fatal::add);
    controller.start();
    assertThatThrownBy(() -> get(controller.submit(tool(1))))
        .hasCauseInstanceOf(StackOverflowError.class);
    Await.until(() -> fatal.size() == 1, "the DVM to be stopped");
  }

  @Test
  void anErrorInAReadStopsTheDvmAndTheReaderLearnsOfIt() throws Exception {
    start(failing(c -> null));
    assertThatThrownBy(
            () ->
                get(
                    controller.read(
                        v -> {
                          throw new AssertionError("test");
                        })))
        .hasCauseInstanceOf(AssertionError.class);
    Await.until(() -> fatal.size() == 1, "the DVM to be stopped");
  }

  @Test
  void aRuntimeExceptionInAReadFailsTheReadAloneAndTheDvmGoesOn() throws Exception {
    start(failing(c -> null));
    assertThatThrownBy(
            () ->
                get(
                    controller.read(
                        v -> {
                          throw new IllegalStateException("test");
                        })))
        .hasCauseInstanceOf(IllegalStateException.class);
    assertThat(get(controller.submit(tool(1))).rejected()).isFalse();
    assertThat(fatal).isEmpty();
  }
}
