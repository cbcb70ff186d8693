package org.jdvm.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the real-Slurm tests share: bringing the 4-node cluster of scripts/slurm up in a scratch
 * directory (or skipping the test, saying why) and down again.
 */
final class SlurmScripts {
  private SlurmScripts() {}

  /**
   * Starts the cluster in {@code tmp/slurm/cluster} on free ports; the test is skipped, with the
   * reason, when this is not root, slurm-wlm is missing, or the cluster does not come up.
   *
   * @return the cluster's directory, for {@link #down} and {@code etc/slurm.conf}
   */
  static Path up(Path tmp) throws Exception {
    Path scripts = scripts();
    assumeTrue(scripts != null, "scripts/slurm/slurm-up.sh not found");
    assumeTrue(isRoot(), "a local Slurm cluster needs root");
    assumeTrue(
        Files.isExecutable(Path.of("/usr/sbin/slurmctld"))
            && Files.isExecutable(Path.of("/usr/bin/salloc")),
        "slurm-wlm is not installed (./dev installs it as root)");
    Path slurmDir = tmp.resolve("slurm/cluster");
    int base = freePortBase();
    ProcessBuilder pb =
        new ProcessBuilder("bash", scripts.resolve("slurm-up.sh").toString())
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("slurm-up.log").toFile());
    pb.environment().put("PATH", pb.environment().get("PATH") + ":/usr/sbin:/sbin");
    pb.environment().put("SLURM_LOCAL_DIR", slurmDir.toString());
    pb.environment().put("SLURM_LOCAL_NO_INSTALL", "1");
    pb.environment().put("SLURM_LOCAL_CTLD_PORT", Integer.toString(base));
    pb.environment().put("SLURM_LOCAL_PORT_BASE", Integer.toString(base));
    Process p = pb.start();
    if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      down(slurmDir);
      assumeTrue(false, "slurm-up.sh failed: " + Files.readString(tmp.resolve("slurm-up.log")));
    }
    return slurmDir;
  }

  /** Stops the cluster in {@code slurmDir} (nothing when null), bounded. */
  static void down(Path slurmDir) throws Exception {
    if (slurmDir == null) {
      return;
    }
    ProcessBuilder pb =
        new ProcessBuilder("bash", scripts().resolve("slurm-down.sh").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("PATH", pb.environment().get("PATH") + ":/usr/sbin:/sbin");
    pb.environment().put("SLURM_LOCAL_DIR", slurmDir.toString());
    Process p = pb.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
  }

  private static Path scripts() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("scripts/slurm/slurm-up.sh"))) {
        return d.resolve("scripts/slurm");
      }
    }
    return null;
  }

  private static boolean isRoot() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream()
        .anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
  }

  private static int freePortBase() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(30_000, 40_000);
      boolean free = true;
      for (int port = base; port < base + 5 && free; port++) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("0.0.0.0"))) {
          s.setReuseAddress(true);
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new IOException("no five consecutive free ports found");
  }
}
