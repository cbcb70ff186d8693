package org.jdvm.bench.dvm;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;

/**
 * 8 clients' job rate beside the floor's 8-thread rate, measured in {@link #turns} alternating
 * one-second turns (the clients wait, nothing in flight, while the floor runs), so that a drift of
 * the machine's speed falls on both alike: the ratio is the median of the turns' ratios. Run after
 * the 8-client throughput run, which warmed the DVM up for 8 clients.
 */
final class TurnsWithFloor {
  /** Turns: one second of the floor, one of jdvm, each ({@code --rate-turns}). */
  private final int turns;

  /** The clients on jdvm's side, and the floor's threads. */
  private static final int CLIENTS = 8;

  private final SpawnFloor floor;
  private final PrintStream progress;

  /** Opens and closes the clients' turns; {@link #open} and {@link #busy} are guarded by it. */
  private final Object gate = new Object();

  private boolean open;
  private int busy;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong done = new AtomicLong();
  private final double[] ratios;
  private long floorSpawns;
  private double floorSeconds;
  private long jobs;
  private long jdvmNs;

  private TurnsWithFloor(SpawnFloor floor, int turns, PrintStream progress) {
    this.floor = floor;
    this.turns = turns;
    this.ratios = new double[turns];
    this.progress = progress;
  }

  /** The three rows (jdvm's rate, the floor's, their ratio); none if the floor failed. */
  static List<Row> measure(Contact c, SpawnFloor floor, int turns, PrintStream progress)
      throws Exception {
    return new TurnsWithFloor(floor, turns, progress).run(c);
  }

  private List<Row> run(Contact c) throws Exception {
    Clients clients = Clients.start(c, CLIENTS, this::spawnWhileOpen);
    try {
      for (int t = 0; t < turns; t++) {
        progress.printf("\r  8 clients beside the floor: turn %d/%d", t + 1, turns);
        if (!turn(t)) {
          return List.of();
        }
      }
    } finally {
      stop.set(true);
      synchronized (gate) {
        gate.notifyAll();
      }
      progress.println();
    }
    clients.join();
    return rows();
  }

  /** One client: spawn-and-waits while its turn is open, until the turns are over. */
  private void spawnWhileOpen(JdvmClient client) throws Exception {
    while (true) {
      synchronized (gate) {
        while (!open && !stop.get()) {
          gate.wait();
        }
        if (stop.get()) {
          return;
        }
        busy++;
      }
      try {
        client.spawn(Clients.trueJob()).awaitEnd();
        done.incrementAndGet();
      } finally {
        synchronized (gate) {
          busy--;
          gate.notifyAll();
        }
      }
    }
  }

  /**
   * Turn {@code t}: one second of the floor, then one of the clients; false if the floor failed.
   */
  private boolean turn(int t) throws InterruptedException {
    Row f = floor.rate(CLIENTS, 1);
    if (f == null) {
      return false;
    }
    double floorRate = ((Number) f.data().get("spawnsPerSecond")).doubleValue();
    floorSpawns += Math.round(floorRate);
    floorSeconds += 1;
    long before = done.get();
    long t0 = System.nanoTime();
    synchronized (gate) {
      open = true;
      gate.notifyAll();
    }
    Thread.sleep(1000);
    synchronized (gate) {
      open = false;
      while (busy > 0) {
        gate.wait();
      }
    }
    long ns = System.nanoTime() - t0;
    long n = done.get() - before;
    jobs += n;
    jdvmNs += ns;
    ratios[t] = (n / (ns / 1e9)) / floorRate;
    return true;
  }

  private List<Row> rows() {
    Arrays.sort(ratios);
    double median =
        turns % 2 == 1 ? ratios[turns / 2] : ratios[turns / 2 - 1] / 2 + ratios[turns / 2] / 2;
    double jdvmRate = jobs / (jdvmNs / 1e9);
    double floorRate = floorSpawns / floorSeconds;
    Map<String, Object> jd = new LinkedHashMap<>();
    jd.put("clients", CLIENTS);
    jd.put("turns", turns);
    jd.put("jobsPerSecond", Math.round(jdvmRate));
    Map<String, Object> fd = new LinkedHashMap<>();
    fd.put("threads", CLIENTS);
    fd.put("turns", turns);
    fd.put("spawnsPerSecond", Math.round(floorRate));
    Map<String, Object> rd = new LinkedHashMap<>();
    rd.put("percent", Math.round(median * 100));
    rd.put(
        "turnPercents", Arrays.stream(ratios).mapToLong(r -> Math.round(r * 100)).boxed().toList());
    return List.of(
        new Row(
            "job throughput, 8 clients, in turns with the floor",
            String.format(Locale.ROOT, "%.0f jobs/s", jdvmRate),
            "",
            jd),
        new Row(
            "floor: posix_spawn + waitpid /bin/true in C, 8 threads",
            String.format(Locale.ROOT, "%.0f spawns/s", floorRate),
            "",
            fd),
        new Row(
            "8-client job rate / floor 8-thread rate, median turn",
            String.format(
                Locale.ROOT,
                "%.0f %% (turns %.0f..%.0f %%)",
                median * 100,
                ratios[0] * 100,
                ratios[turns - 1] * 100),
            ">= 60 %",
            rd));
  }
}
