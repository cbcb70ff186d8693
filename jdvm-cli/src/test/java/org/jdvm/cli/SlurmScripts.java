package org.jdvm.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the real-Slurm tests share to bring up the 4-node cluster of scripts/slurm: where the
 * scripts are, whether this test runs as root, and five consecutive free ports for its daemons.
 */
final class SlurmScripts {
  private SlurmScripts() {}

  static Path scripts() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("scripts/slurm/slurm-up.sh"))) {
        return d.resolve("scripts/slurm");
      }
    }
    return null;
  }

  static boolean isRoot() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream()
        .anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
  }

  static int freePortBase() throws IOException {
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
