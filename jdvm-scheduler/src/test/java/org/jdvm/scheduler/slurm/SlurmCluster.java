package org.jdvm.scheduler.slurm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Slurm 22.05 on this machine for tests: one slurmctld and four slurmd ({@code node1..4},
 * all on 127.0.0.1, each on its own port) made by {@code scripts/slurm/slurm-up.sh} in a fresh
 * directory with free ports, and taken down by {@code slurm-down.sh}. {@link #unavailable} says why
 * it cannot run here (not root, Slurm not installed, not Linux), for a JUnit assumption.
 */
public final class SlurmCluster implements AutoCloseable {
  private static final List<String> DAEMONS =
      List.of("slurmctld", "slurmd", "salloc", "srun", "squeue", "scontrol", "scancel");

  final Path dir;
  final Path conf;
  private final Path scripts;

  private SlurmCluster(Path dir, Path scripts) {
    this.dir = dir;
    this.conf = dir.resolve("etc/slurm.conf");
    this.scripts = scripts;
  }

  /** Why a cluster cannot be made here, or {@code null}. */
  static String unavailable() {
    if (!System.getProperty("os.name").equals("Linux")) {
      return "a local Slurm cluster needs Linux";
    }
    if (!isRoot()) {
      return "a local Slurm cluster needs root (slurmd launches tasks as their users)";
    }
    for (String d : DAEMONS) {
      if (which(d) == null) {
        return d + " is not installed (Debian package slurm-wlm; ./dev installs it as root)";
      }
    }
    return scriptsDir() == null ? "scripts/slurm/slurm-up.sh not found above " + cwd() : null;
  }

  /**
   * A cluster for a test class, or the class skipped with the reason: this machine cannot run one
   * ({@link #unavailable}), or slurm-up.sh failed here (its last lines say why).
   */
  public static SlurmCluster upOrSkip() throws InterruptedException {
    String why = unavailable();
    Assumptions.assumeTrue(why == null, why);
    try {
      return up();
    } catch (IOException e) {
      Assumptions.abort(e.getMessage());
      throw new AssertionError(e);
    }
  }

  /** Brings a cluster up (about 0.1 s once installed); the reason as an exception if it fails. */
  static SlurmCluster up() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("jdvm-slurm").resolve("cluster");
    SlurmCluster c = new SlurmCluster(dir, scriptsDir());
    int base = freePortBase();
    ProcessBuilder pb =
        new ProcessBuilder("bash", c.scripts.resolve("slurm-up.sh").toString())
            .redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("PATH", env.getOrDefault("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin");
    env.put("SLURM_LOCAL_DIR", dir.toString());
    env.put("SLURM_LOCAL_NO_INSTALL", "1");
    env.put("SLURM_LOCAL_CTLD_PORT", Integer.toString(base));
    env.put("SLURM_LOCAL_PORT_BASE", Integer.toString(base));
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      c.close();
      throw new IOException("slurm-up.sh failed: " + tail(out));
    }
    return c;
  }

  /** What Slurm's client commands need to find this cluster. */
  public Map<String, String> env() {
    return Map.of("SLURM_CONF", conf.toString());
  }

  /** Runs a Slurm client command against this cluster (for checks from the test's side). */
  public SlurmCommands.Result run(String... argv) throws IOException {
    return SlurmSchedulerPort.systemCommands(env()).run(List.of(argv), 15_000);
  }

  /** Cancels every job and waits until no job is left and all four nodes are idle again. */
  void cancelAll() throws IOException, InterruptedException {
    run("scancel", "--user=root");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      // A node still completing a job counts as idle to sinfo, but Slurm will not grant it yet.
      String live = run("squeue", "--noheader", "--states=PD,R,CG,CF,S", "--format=%i").out();
      String idle = run("sinfo", "--noheader", "--Node", "--states=idle", "--format=%N %t").out();
      if (live.isBlank()
          && idle.strip().lines().filter(l -> l.endsWith(" idle")).distinct().count() == 4) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("nodes not idle 30 s after scancel");
  }

  @Override
  public void close() throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder("bash", scripts.resolve("slurm-down.sh").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("PATH", pb.environment().getOrDefault("PATH", "") + ":/usr/sbin:/sbin");
    pb.environment().put("SLURM_LOCAL_DIR", dir.toString());
    pb.environment().put("SLURM_LOCAL_PURGE", "1");
    Process p = pb.start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> s = Files.walk(dir.getParent())) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  // ---- finding things --------------------------------------------------------------------------

  private static boolean isRoot() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          return line.split("\\s+")[1].equals("0");
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  private static Path which(String command) {
    List<String> dirs = new ArrayList<>(List.of(System.getenv("PATH").split(":")));
    dirs.addAll(List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin"));
    for (String d : dirs) {
      Path p = Path.of(d, command);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  private static Path cwd() {
    return Path.of(System.getProperty("user.dir")).toAbsolutePath();
  }

  private static Path scriptsDir() {
    for (Path d = cwd(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("scripts/slurm/slurm-up.sh"))) {
        return d.resolve("scripts/slurm");
      }
    }
    return null;
  }

  /** A port P with P..P+4 free on every address (slurmctld on P, node I on P+I). */
  private static int freePortBase() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(20_000, 30_000);
      if (free(base, 5)) {
        return base;
      }
    }
    throw new IOException("no five consecutive free ports found");
  }

  private static boolean free(int base, int n) {
    for (int p = base; p < base + n; p++) {
      try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getByName("0.0.0.0"))) {
        s.setReuseAddress(true);
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  private static String tail(String out) {
    List<String> lines = out.lines().toList();
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
  }
}
