package org.jdvm.scheduler.slurm;

import org.jdvm.scheduler.Ask;

/**
 * An ask whose {@code salloc --no-shell} runs: salloc tells, on stderr, that the request is pending
 * (with its job id) and later that it is granted, then exits. The state {@link SlurmScheduler}
 * keeps of it; the process is the port's ({@link SallocProcess}), which knows it by this object.
 */
final class SallocAsk {
  final Ask ask;
  String jobId;
  String lastError;
  boolean queued;
  boolean never;
  boolean cancelled;
  boolean answered;

  SallocAsk(Ask ask) {
    this.ask = ask;
  }
}
