package org.jdvm.host.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The cgroup v2 file system as containment uses it: a cgroup made below the controller's own, a
 * cgroup killed with everything below it ({@code cgroup.kill}), whether one is populated, emptied
 * ones removed (the kernel's cgroup v2 admin guide).
 */
final class CgroupFs {
  private CgroupFs() {}

  /**
   * A new cgroup {@code name} in the controller's own cgroup v2, or {@code null} if none can be
   * made there (no cgroup v2, not writable, or before Linux 5.14: no {@code cgroup.kill}).
   */
  static Path create(String name) {
    try {
      Path mount = null;
      for (String l : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
        // ... mountpoint ... - fstype source options
        int dash = l.indexOf(" - ");
        if (dash > 0 && l.substring(dash + 3).startsWith("cgroup2 ")) {
          mount = Path.of(l.split(" ")[4]);
          break;
        }
      }
      String own = null;
      for (String l : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        if (l.startsWith("0::")) {
          own = l.substring(3);
        }
      }
      if (mount == null || own == null) {
        return null;
      }
      Path base = mount.resolve(own.startsWith("/") ? own.substring(1) : own);
      Path cg = base.resolve(name);
      Files.createDirectory(cg);
      if (!Files.isRegularFile(cg.resolve("cgroup.kill"))) {
        Files.deleteIfExists(cg); // before Linux 5.14: no reliable kill, use the other mode
        return null;
      }
      return cg;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Kills everything in {@code cg} and below and waits (bounded) until it is empty. */
  static void kill(Path cg) {
    try {
      KernelFiles.writeSmall(cg.resolve("cgroup.kill"), "1");
    } catch (IOException e) {
      return; // gone
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ProcScan.KILL_WAIT_MS);
    while (System.nanoTime() < deadline && populated(cg)) {
      Thread.onSpinWait();
      try {
        Thread.sleep(1); // the kernel takes a moment to tear dying processes down
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
  }

  private static boolean populated(Path cg) {
    try {
      return populated(KernelFiles.readSmall(cg.resolve("cgroup.events")));
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a {@code cgroup.events} text says {@code populated 1}. */
  static boolean populated(String events) {
    int at = events.indexOf("populated ");
    return at >= 0 && at + 10 < events.length() && events.charAt(at + 10) != '0';
  }

  /** Removes every empty cgroup below {@code cg}, deepest first. */
  static void removeEmptyBelow(Path cg) {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(cg, Files::isDirectory)) {
      for (Path d : ds) {
        removeEmptyBelow(d);
        try {
          Files.deleteIfExists(d);
        } catch (IOException e) {
          // Not empty yet.
        }
      }
    } catch (IOException e) {
      // Gone.
    }
  }

  /**
   * Enables the pids controller for the cgroups below {@code cg} if {@code cg} has it (its {@code
   * cgroup.controllers}); whether it is enabled.
   */
  static boolean enablePids(Path cg) {
    try {
      String controllers = KernelFiles.readSmall(cg.resolve("cgroup.controllers"));
      if (!(" " + controllers.strip() + " ").contains(" pids ")) {
        return false;
      }
      KernelFiles.writeSmall(cg.resolve("cgroup.subtree_control"), "+pids");
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** How many forks the kernel refused in {@code cg} for its {@code pids.max} (0 if unknown). */
  static long forksRefused(Path cg) {
    try {
      for (String l : KernelFiles.readSmall(cg.resolve("pids.events")).split("\n")) {
        if (l.startsWith("max ")) {
          return Long.parseLong(l.substring(4).strip());
        }
      }
    } catch (IOException | NumberFormatException e) {
      // No pids controller here, or the cgroup is gone.
    }
    return 0;
  }

  /** How many processes {@code cg} and the cgroups below it hold. */
  static int countProcs(Path cg) {
    int[] n = {0};
    try (var walk = Files.walk(cg)) {
      walk.filter(p -> p.getFileName().toString().equals("cgroup.procs"))
          .forEach(
              p -> {
                try {
                  n[0] += (int) Files.readAllLines(p).stream().filter(s -> !s.isBlank()).count();
                } catch (IOException e) {
                  // Gone meanwhile.
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // Gone meanwhile.
    }
    return n[0];
  }
}
