package org.jdvm.bench.dvm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.LocalCommand;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;

/**
 * The wire-up's part of {@code jdvm bench} (docs/wireup.md §c.11): a fence with data over 8 ranks
 * inside the DVM, timed by the libpmix client {@code pmix_fence_bench} itself, compiled from the
 * checkout ({@code JDVM_HOME}, as the launcher sets it) with {@code gcc}; skipped, saying why, when
 * it cannot be built. MPI programs under jdvm beside their own launchers are {@link
 * MpiLaunchBench}'s.
 */
final class WireupBench {
  private static final Pattern FENCE =
      Pattern.compile("FENCE_BENCH rank=(\\d+) .* median_us=([\\d.]+) p99_us=([\\d.]+)");

  private final Path home;
  private final Contact contact;
  private final PrintStream progress;

  WireupBench(Path home, Contact contact, PrintStream progress) {
    this.home = home;
    this.contact = contact;
    this.progress = progress;
  }

  List<Row> rows() throws IOException, InterruptedException {
    String checkout = System.getenv("JDVM_HOME");
    if (checkout == null || !Files.isExecutable(Path.of(checkout, "jdvm"))) {
      progress.println("  (skipping the wire-up measures: not started through ./jdvm)");
      return List.of();
    }
    Path sources = Path.of(checkout, "jdvm-client/src/test/resources/wireup");
    List<Row> rows = new ArrayList<>();
    String flags = output(List.of("pkg-config", "--cflags", "--libs", "pmix"));
    Path fence = home.resolve("pmix_fence_bench");
    List<String> gcc =
        new ArrayList<>(
            List.of(
                "gcc",
                "-o",
                fence.toString(),
                sources.resolve("pmix_fence_bench.c").toString(),
                "-I" + sources));
    if (flags != null) {
      gcc.addAll(List.of(flags.trim().split("\\s+")));
    }
    if (flags == null || output(gcc) == null) {
      progress.println("  (skipping the fence measure: gcc or libpmix-dev is missing)");
    } else {
      Row row = fence(fence, 8);
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** {@code np} ranks of the fence client, 500 timed rounds; the slowest rank's figures. */
  private Row fence(Path exe, int np) throws IOException {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    progress.println("  fence with data, " + np + " ranks ...");
    try (JdvmClient client =
        JdvmClient.connector()
            .contact(contact)
            .role(Role.TOOL)
            .output(
                (source, stderr, bytes) -> {
                  synchronized (text) {
                    text.writeBytes(bytes);
                  }
                })
            .connect()) {
      int exit =
          client
              .spawn(SpawnRequest.of(exe.toString(), "500", "100").procs(np).build())
              .awaitEnd()
              .exitCode();
      if (exit != 0) {
        progress.println("  fence client exited " + exit + ": " + text);
        return null;
      }
    } catch (org.jdvm.client.PmixException e) {
      progress.println("  fence client failed: " + e.getMessage());
      return null;
    }
    double median = 0;
    double p99 = 0;
    int ranks = 0;
    String all;
    synchronized (text) {
      all = text.toString(StandardCharsets.UTF_8);
    }
    Matcher m = FENCE.matcher(all);
    while (m.find()) {
      median = Math.max(median, Double.parseDouble(m.group(2)));
      p99 = Math.max(p99, Double.parseDouble(m.group(3)));
      ranks++;
    }
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("ranks", ranks);
    data.put("rounds", 500);
    data.put("bytesPerRank", 100);
    data.put("medianUs", median);
    data.put("p99Us", p99);
    return new Row(
        "fence with data, " + np + " ranks (put+commit+fence round)",
        String.format(Locale.ROOT, "median %.0f us, p99 %.0f us", median, p99),
        "< 1 ms",
        data);
  }

  /** A command's output, or {@code null} when it could not run or failed. */
  private static String output(List<String> cmd) throws InterruptedException {
    return LocalCommand.output(cmd, 120);
  }
}
