package org.jdvm.bench.dvm;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The floor of process launching on this machine, for {@code jdvm bench} ({@link DvmBench}): a C
 * program ({@code spawn_floor.c}, compiled with {@code gcc} at bench time) that {@code
 * posix_spawn}s {@code /bin/true} and reaps it, one thread for latency and several for a rate.
 * Nothing jdvm does can start a process faster; jdvm's figures are reported as ratios to it.
 */
final class SpawnFloor {
  private static String whyNot = "";

  private final Path exe;

  private SpawnFloor(Path exe) {
    this.exe = exe;
  }

  /** Compiles the program into {@code dir}; {@code null} (and {@link #whyNot}) if it cannot. */
  static SpawnFloor build(Path dir, PrintStream progress) {
    Path gcc = null;
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(d.isEmpty() ? "." : d, "gcc");
      if (Files.isExecutable(p)) {
        gcc = p;
        break;
      }
    }
    if (gcc == null) {
      whyNot = "no gcc on PATH to compile the C floor";
      return null;
    }
    try (InputStream in = SpawnFloor.class.getResourceAsStream("spawn_floor.c")) {
      if (in == null) {
        whyNot = "spawn_floor.c is missing from the build";
        return null;
      }
      Path src = dir.resolve("spawn_floor.c");
      Path exe = dir.resolve("spawn_floor");
      Files.write(src, in.readAllBytes());
      progress.println("  floor: compiling spawn_floor.c with " + gcc);
      Process p =
          new ProcessBuilder(
                  gcc.toString(), "-O2", "-pthread", "-o", exe.toString(), src.toString())
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        whyNot = "gcc failed: " + out.lines().findFirst().orElse("");
        return null;
      }
      return new SpawnFloor(exe);
    } catch (IOException e) {
      whyNot = "cannot build the C floor: " + e.getMessage();
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      whyNot = "interrupted";
      return null;
    }
  }

  static String whyNot() {
    return whyNot;
  }

  /** One thread, {@code n} spawn+waits. */
  Row latency(int n) {
    String out = run(exe.toString(), "latency", Integer.toString(n));
    if (out == null) {
      return null;
    }
    String[] f = out.trim().split(" ");
    long[] ns = new long[f.length];
    for (int i = 0; i < f.length; i++) {
      ns[i] = Long.parseLong(f[i]);
    }
    return Row.latency("floor: posix_spawn + waitpid /bin/true in C, 1 thread", ns, "");
  }

  /** {@code threads} threads for {@code seconds}. */
  Row rate(int threads, int seconds) {
    String out = run(exe.toString(), "rate", Integer.toString(threads), Integer.toString(seconds));
    if (out == null) {
      return null;
    }
    String[] f = out.trim().split(" ");
    double perSecond = Long.parseLong(f[0]) / (Long.parseLong(f[1]) / 1e9);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("threads", threads);
    data.put("spawnsPerSecond", Math.round(perSecond));
    return new Row(
        "floor: posix_spawn + waitpid /bin/true in C, " + threads + " threads",
        String.format(Locale.ROOT, "%.0f spawns/s", perSecond),
        "",
        data);
  }

  static Row latencyRatio(Row jdvm, Row floor) {
    double ratio =
        ((Number) jdvm.data().get("medianMs")).doubleValue()
            / ((Number) floor.data().get("medianMs")).doubleValue();
    return new Row(
        "spawn-and-wait median / floor median",
        String.format(Locale.ROOT, "%.2f x", ratio),
        "<= 2 x",
        Map.of("ratio", Math.round(ratio * 100) / 100.0));
  }

  /** {@code cmd}'s output if it exits 0 within 120 s; it is ended whatever happens. */
  private static String run(String... cmd) {
    Process p = null;
    try {
      p = new ProcessBuilder(List.of(cmd)).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      if (p != null) {
        p.destroyForcibly();
      }
    }
  }
}
