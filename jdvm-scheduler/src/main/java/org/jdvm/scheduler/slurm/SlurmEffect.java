package org.jdvm.scheduler.slurm;

import java.util.List;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * What one step of {@link SlurmScheduler} asks its port to do, in order. The port carries them out
 * one after the other; a {@link Query}'s continuation runs where the query stands, so its effects
 * come before the next one's.
 */
sealed interface SlurmEffect {
  /** An event for the DVM: it leaves once the step's state is journaled. */
  record Emit(SchedulerEvent event) implements SlurmEffect {}

  /**
   * Starts {@code salloc --no-shell} for an ask: the port hands each line of its stderr to {@link
   * SlurmScheduler#sallocLine}, then its exit to {@link SlurmScheduler#sallocExit}, or {@link
   * SlurmScheduler#sallocNotStarted} if it cannot start it.
   */
  record StartSalloc(SallocAsk salloc, List<String> argv) implements SlurmEffect {
    public StartSalloc {
      argv = List.copyOf(argv);
    }
  }

  /** Ends the salloc of an ask the port no longer needs (SIGTERM, then SIGKILL after a grace). */
  record EndSalloc(SallocAsk salloc) implements SlurmEffect {}

  /**
   * Runs a command whose answer decides nothing ({@code scancel}, shrinking a job); a failure is
   * logged as {@code SlurmCli.failure(failure, its last line)}.
   */
  record Run(List<String> argv, String failure) implements SlurmEffect {
    public Run {
      argv = List.copyOf(argv);
    }
  }

  /**
   * Runs a command whose answer the step goes on with ({@code scontrol show job} for a grant,
   * {@code scontrol update TimeLimit} and {@code squeue} for an extension): the port hands what it
   * said, and the time after it, to {@link SlurmScheduler#answer}.
   */
  record Query(List<String> argv, Then then) implements SlurmEffect {
    public Query {
      argv = List.copyOf(argv);
    }
  }

  /** The rest of a step, once a {@link Query} is answered. */
  @FunctionalInterface
  interface Then {
    void after(SlurmCommands.Result answer, SlurmScheduler.Time now);
  }

  /** A line for the log. */
  record Log(System.Logger.Level level, String message) implements SlurmEffect {}
}
