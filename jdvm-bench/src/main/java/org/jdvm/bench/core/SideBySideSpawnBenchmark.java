package org.jdvm.bench.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;

/**
 * Spawn-and-wait of a 1-process {@code /bin/true} against several running DVMs side by side (each
 * started with {@code jdvm start --detach --dir DIR}, e.g. under different JVM options): in every
 * round each DVM in turn serves a block of jobs, so that a shared machine's drift falls on all of
 * them alike. Prints each DVM's pooled median and the median (and quartiles) of the per-round
 * ratios to the first. Reported, not asserted.
 *
 * <p>Run: {@code java -cp 'jdvm-bench/target/classes:jdvm-bench/target/lib/*'
 * org.jdvm.bench.core.SideBySideSpawnBenchmark ROUNDS DIR...} (warm-up: 2,000 jobs each, as {@code
 * jdvm bench}).
 */
public final class SideBySideSpawnBenchmark {
  static final int BLOCK = 20;
  static final int WARM_UP = 2_000;

  private SideBySideSpawnBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    if (args[1].startsWith("--clients=")) {
      rates(
          rounds,
          Integer.parseInt(args[1].substring("--clients=".length())),
          Arrays.asList(args).subList(2, args.length));
      return;
    }
    List<String> dirs = Arrays.asList(args).subList(1, args.length);
    List<JdvmClient> clients = new ArrayList<>();
    try {
      for (String d : dirs) {
        clients.add(
            JdvmClient.connector()
                .contact(Contact.fromFile(Path.of(d).resolve(Contact.CONTACT_FILE)))
                .role(Role.TOOL)
                .output(OutputHandler.DISCARD)
                .connect());
      }
      for (JdvmClient c : clients) {
        for (int i = 0; i < WARM_UP; i++) {
          spawnAndWait(c);
        }
      }
      int n = clients.size();
      double[][] perRound = new double[n][rounds];
      List<List<Long>> all = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        all.add(new ArrayList<>());
      }
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
          long[] block = new long[BLOCK];
          for (int k = 0; k < BLOCK; k++) {
            block[k] = spawnAndWait(clients.get(i));
            all.get(i).add(block[k]);
          }
          perRound[i][r] = median(block);
        }
      }
      for (int i = 0; i < n; i++) {
        long[] pooled = all.get(i).stream().mapToLong(Long::longValue).toArray();
        System.out.printf(
            Locale.ROOT,
            "%-40s spawn-and-wait median %.3f ms%n",
            dirs.get(i),
            median(pooled) / 1e6);
      }
      printRatios("ratio", dirs, perRound);
    } finally {
      for (JdvmClient c : clients) {
        c.close();
      }
    }
  }

  /** The job rate of {@code clients} concurrent clients, each DVM in turn for a second a round. */
  private static void rates(int rounds, int clients, List<String> dirs) throws Exception {
    int n = dirs.size();
    List<List<JdvmClient>> conns = new ArrayList<>();
    try {
      for (String d : dirs) {
        List<JdvmClient> cs = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
          cs.add(
              JdvmClient.connector()
                  .contact(Contact.fromFile(Path.of(d).resolve(Contact.CONTACT_FILE)))
                  .role(Role.TOOL)
                  .output(OutputHandler.DISCARD)
                  .connect());
        }
        conns.add(cs);
      }
      double[][] perRound = new double[n][rounds];
      for (int r = -3; r < rounds; r++) { // three rounds of warm-up
        for (int i = 0; i < n; i++) {
          double rate = burst(conns.get(i), 1_000);
          if (r >= 0) {
            perRound[i][r] = rate;
          }
        }
      }
      for (int i = 0; i < n; i++) {
        double[] v = perRound[i].clone();
        Arrays.sort(v);
        System.out.printf(
            Locale.ROOT,
            "%-40s %d clients: median %.0f jobs/s%n",
            dirs.get(i),
            clients,
            v[rounds / 2]);
      }
      printRatios("rate ratio", dirs, perRound);
    } finally {
      for (List<JdvmClient> cs : conns) {
        for (JdvmClient c : cs) {
          c.close();
        }
      }
    }
  }

  /** Jobs per second that these clients complete together in about {@code millis}. */
  private static double burst(List<JdvmClient> clients, long millis) throws Exception {
    java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
    long t0 = System.nanoTime();
    long end = t0 + millis * 1_000_000;
    List<Thread> threads = new ArrayList<>();
    for (JdvmClient c : clients) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      while (System.nanoTime() < end) {
                        spawnAndWait(c);
                        done.incrementAndGet();
                      }
                    } catch (PmixException e) {
                      throw new IllegalStateException(e);
                    }
                  }));
    }
    for (Thread t : threads) {
      t.join();
    }
    return done.get() / ((System.nanoTime() - t0) / 1e9);
  }

  /** The median and quartiles of each DVM's per-round ratio to the first DVM's. */
  private static void printRatios(String what, List<String> dirs, double[][] perRound) {
    int rounds = perRound[0].length;
    for (int i = 1; i < dirs.size(); i++) {
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = perRound[i][r] / perRound[0][r] - 1;
      }
      Arrays.sort(ratio);
      System.out.printf(
          Locale.ROOT,
          "%s vs %s, per-round %s: median %+.1f %% (quartiles %+.1f..%+.1f)%n",
          dirs.get(i),
          dirs.get(0),
          what,
          100 * ratio[rounds / 2],
          100 * ratio[rounds / 4],
          100 * ratio[3 * rounds / 4]);
    }
  }

  private static long spawnAndWait(JdvmClient c) throws PmixException {
    long t0 = System.nanoTime();
    c.spawn(SpawnRequest.of("/bin/true").forwardOutput(false).notifyCompletion(true).build())
        .awaitEnd();
    return System.nanoTime() - t0;
  }

  private static double median(long[] values) {
    long[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }
}
