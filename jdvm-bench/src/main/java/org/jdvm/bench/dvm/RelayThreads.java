package org.jdvm.bench.dvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether the simulated agents' relays of {@link AgentScaleBench} fit in this host's threads
 * (docs/cli.md "jdvm bench"): a fenced job opens one relay per simulated agent, all in the bench's
 * child JVMs.
 */
final class RelayThreads {
  private RelayThreads() {}

  /**
   * Why the fenced job of {@code n} simulated agents cannot run on this host, or {@code null}: each
   * agent's relay starts {@link #THREADS_PER_RELAY} platform threads (its PMIx and simple PMI
   * accept loops, its timer), and with the host's threads they must stay {@link #THREAD_MARGIN}
   * below {@code kernel.pid_max}, which every process of the host shares.
   */
  static String missing(int n) {
    try {
      // line by line: Files.readString read "3" of this size-0 /proc file here
      long pidMax =
          Long.parseLong(
              Files.readAllLines(Path.of("/proc/sys/kernel/pid_max")).getFirst().strip());
      String[] load = Files.readAllLines(Path.of("/proc/loadavg")).getFirst().split(" ");
      long threads = Long.parseLong(load[3].substring(load[3].indexOf('/') + 1));
      long needed = (long) THREADS_PER_RELAY * n;
      if (threads + needed + THREAD_MARGIN <= pidMax) {
        return null;
      }
      return String.format(
          Locale.ROOT,
          "its %d relays would start %d platform threads; this host runs %d threads and"
              + " kernel.pid_max is %d",
          n,
          needed,
          threads,
          pidMax);
    } catch (IOException | RuntimeException e) {
      return null; // not Linux: nothing to tell, try
    }
  }

  private static final int THREADS_PER_RELAY = 3;
  private static final int THREAD_MARGIN = 4_096;
}
