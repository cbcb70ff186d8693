package org.jdvm.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * Ctrl-C and SIGTERM for a command that holds a job ({@code jdvm run}, {@code jdvm alloc new --
 * CMD}): the first one exits the ordered way, through the client's exit hook, which ends the job
 * and only then closes the connection (one path, so nothing races it). A second Ctrl-C (SIGINT)
 * while that is under way forces the exit at once, as with {@code mpirun}, without waiting for the
 * DVM's answer; it still ends the job: its last word (the job's termination) is written to the DVM
 * first, for at most {@link #LAST_WORD_MS}. A second SIGTERM does not: {@code timeout(1)} sends its
 * TERM to the command and again to its process group, and a supervisor may repeat one, so a TERM
 * only ever asks for the ordered exit, which ends the job. Only when jdvm is the process itself,
 * never embedded.
 */
final class Interrupts {
  private static final AtomicBoolean INSTALLED = new AtomicBoolean();
  private static final AtomicBoolean EXITING = new AtomicBoolean();

  /** How long a forced exit waits for its last word to be written (not answered). */
  static final long LAST_WORD_MS = 2_000;

  private static volatile Runnable lastWord = () -> {};

  private Interrupts() {}

  /**
   * @param last what a forced exit does before it halts: write the job's termination to the DVM
   *     (without waiting for the answer), so a second Ctrl-C never leaves the job running
   */
  static void install(Runnable last) {
    if (!RunCommand.ownsProcessStdin || !INSTALLED.compareAndSet(false, true)) {
      return;
    }
    lastWord = last;
    handle("INT", 128 + 2, true);
    handle("TERM", 128 + 15, false);
  }

  /**
   * @param againForces whether this signal, arriving again while the ordered exit is under way,
   *     forces the exit (a terminal's second Ctrl-C), or is one more request for the same exit
   */
  private static void handle(String name, int status, boolean againForces) {
    try {
      Signal.handle(
          new Signal(name),
          s -> {
            if (EXITING.compareAndSet(false, true)) {
              Thread.ofPlatform().name("jdvm-exit").start(() -> System.exit(status));
            } else if (againForces) {
              System.err.println("jdvm: interrupted again: ending the job and exiting now");
              sayLastWord();
              Runtime.getRuntime().halt(status);
            }
          });
    } catch (IllegalArgumentException e) {
      // The signal is not available here (the JVM runs with -Xrs): the JVM's default stays.
    }
  }

  /** Runs the last word on its own thread and waits for it at most {@link #LAST_WORD_MS}. */
  private static void sayLastWord() {
    Thread t = Thread.ofPlatform().daemon().name("jdvm-last-word").start(lastWord);
    try {
      t.join(LAST_WORD_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
