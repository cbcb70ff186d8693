package org.jdvm.bench.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmLogging;
import org.jdvm.server.journal.FsyncPolicy;

/**
 * What the journal costs a client, side by side (docs/journal.md "Benchmarks"): one embedded DVM
 * per fsync policy in this JVM, each with a client; in every round each DVM in turn serves a block
 * of NEW+RELEASE round trips and of 1-process {@code /bin/true} spawn-and-waits. Run against run, a
 * shared machine's drift is larger than the journal's cost; taken in turn, each round's medians
 * compare under the same conditions. Prints pooled medians and the median (and quartiles) of the
 * per-round ratios to the first policy. Reported, not asserted.
 *
 * <p>Run with the JVM's default flags, as every DVM runs (detached, or in the foreground through
 * the {@code jdvm} launcher): {@code java -cp 'jdvm-bench/target/classes:jdvm-bench/target/lib/*'
 * org.jdvm.bench.core.JournalOverheadBenchmark [ROUNDS [POLICY...]]} (default 30 rounds, {@code off
 * interval never always}); the CLI's start-up flags ({@code -XX:TieredStopAtLevel=1
 * -XX:+UseSerialGC}) measure a DVM run inside a CLI JVM ({@code jdvm bench --in-process}).
 */
public final class JournalOverheadBenchmark {
  static final int ALLOCS = 100;
  static final int SPAWNS = 20;
  static final int WARM_UP_ROUNDS = 3;

  private JournalOverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    List<String> policies =
        args.length > 1
            ? Arrays.asList(args).subList(1, args.length)
            : List.of("off", "interval", "never", "always");
    Path base = Files.createTempDirectory("jdvm-journal-overhead-");
    DvmLogging.configure(base.resolve("dvm.log"), false);
    DvmLogging.quiet();
    int n = policies.size();
    List<DvmServer> servers = new ArrayList<>();
    List<JdvmClient> clients = new ArrayList<>();
    Timings allocs = new Timings(n, rounds);
    Timings spawns = new Timings(n, rounds);
    try {
      for (int i = 0; i < n; i++) {
        Path home = Files.createDirectories(base.resolve(i + "-" + policies.get(i)));
        servers.add(
            DvmServer.start(
                DvmConfig.embedded("j" + i, 4, 16, 8, home)
                    .withFsync(FsyncPolicy.parse(policies.get(i)))));
        clients.add(
            JdvmClient.connector()
                .contact(Contact.fromFile(home.resolve(Contact.CONTACT_FILE)))
                .role(Role.TOOL)
                .output(OutputHandler.DISCARD)
                .connect());
      }
      for (int r = -WARM_UP_ROUNDS; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
          long[] a = allocs(clients.get(i));
          long[] s = spawns(clients.get(i));
          if (r >= 0) {
            allocs.add(i, r, a);
            spawns.add(i, r, s);
          }
        }
        System.err.printf("\r  round %d/%d", Math.max(0, r + 1), rounds);
      }
      System.err.println();
    } finally {
      for (JdvmClient c : clients) {
        c.close();
      }
      for (DvmServer s : servers) {
        s.close();
      }
      org.jdvm.host.JobDirectories.removeTree(base);
    }
    print(policies, allocs, spawns);
  }

  /** Each policy's samples: the median of each round, and all of them pooled. */
  private record Timings(double[][] rounds, List<List<Long>> all) {
    Timings(int policies, int rounds) {
      this(new double[policies][rounds], new ArrayList<>());
      for (int i = 0; i < policies; i++) {
        all.add(new ArrayList<>());
      }
    }

    void add(int policy, int round, long[] ns) {
      rounds[policy][round] = median(ns);
      Arrays.stream(ns).forEach(all.get(policy)::add);
    }
  }

  /** {@link #ALLOCS} NEW+RELEASE round trips; their times. */
  private static long[] allocs(JdvmClient c) throws PmixException {
    long[] a = new long[ALLOCS];
    for (int k = 0; k < ALLOCS; k++) {
      long t0 = System.nanoTime();
      AllocationResult res = c.allocate(AllocationRequest.newAllocation().nodes(1).build());
      c.allocate(AllocationRequest.release().allocId(res.allocId()).build());
      a[k] = System.nanoTime() - t0;
    }
    return a;
  }

  /** {@link #SPAWNS} spawn-and-waits of a 1-process {@code /bin/true}; their times. */
  private static long[] spawns(JdvmClient c) throws PmixException {
    long[] s = new long[SPAWNS];
    for (int k = 0; k < SPAWNS; k++) {
      long t0 = System.nanoTime();
      c.spawn(SpawnRequest.of("/bin/true").forwardOutput(false).notifyCompletion(true).build())
          .awaitEnd();
      s[k] = System.nanoTime() - t0;
    }
    return s;
  }

  /** Pooled medians per policy, then each policy's per-round ratios to the first. */
  private static void print(List<String> policies, Timings allocs, Timings spawns) {
    int n = policies.size();
    for (int i = 0; i < n; i++) {
      System.out.printf(
          Locale.ROOT,
          "%-9s NEW+RELEASE median %.3f ms  spawn-and-wait median %.3f ms%n",
          policies.get(i),
          median(allocs.all().get(i)) / 1e6,
          median(spawns.all().get(i)) / 1e6);
    }
    for (int i = 1; i < n; i++) {
      System.out.printf(
          Locale.ROOT,
          "%-9s vs %s, per-round ratio: NEW+RELEASE %s  spawn-and-wait %s%n",
          policies.get(i),
          policies.get(0),
          ratios(allocs.rounds()[i], allocs.rounds()[0]),
          ratios(spawns.rounds()[i], spawns.rounds()[0]));
    }
  }

  private static String ratios(double[] x, double[] base) {
    double[] r = new double[x.length];
    for (int k = 0; k < x.length; k++) {
      r[k] = 100 * (x[k] / base[k] - 1);
    }
    Arrays.sort(r);
    return String.format(
        Locale.ROOT,
        "median %+.1f %% (quartiles %+.1f..%+.1f)",
        r[r.length / 2],
        r[r.length / 4],
        r[r.length * 3 / 4]);
  }

  private static double median(long[] ns) {
    long[] c = ns.clone();
    Arrays.sort(c);
    return c[c.length / 2];
  }

  private static double median(List<Long> ns) {
    return median(ns.stream().mapToLong(Long::longValue).toArray());
  }
}
