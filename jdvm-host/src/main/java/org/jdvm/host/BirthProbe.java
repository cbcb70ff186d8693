package org.jdvm.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jdvm.host.os.Containment;
import org.jdvm.host.os.NativeSpawn;
import org.jdvm.host.os.Posix;
import org.jdvm.host.os.Start;
import org.jdvm.pmix.Signal;

/**
 * The start-up check whether a process born into a fresh cgroup lives: it exits normally rather
 * than killed at birth. Linux 6.14 and later kill such a process when the cgroup this one runs in
 * has been killed fewer times than the target (see {@code CgroupContainment#retire}); a fresh
 * target has never been killed, so only a controller in a cgroup once killed and not emptied meets
 * it, and then starts with {@code posix_spawn} and moves.
 */
final class BirthProbe {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** The group of the check: no job's. */
  private static final String PROBE_GROUP = "\u0000birth-check";

  private BirthProbe() {}

  /** Whether {@code /bin/true} born into a cgroup of {@code containment} exits 0. */
  static boolean birthsSurvive(Containment containment) {
    Path exe =
        Stream.of("/bin/true", "/usr/bin/true")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);
    Path where = containment.birthplace(PROBE_GROUP);
    if (exe == null || where == null) {
      return false;
    }
    int pidfd = -1;
    try {
      NativeSpawn.Started s =
          NativeSpawn.spawn(new Start(exe, List.of("true"), Map.of(), null, -1, 1, 2), where, true);
      pidfd = s.pidfd();
      return lived(s.pid(), pidfd);
    } catch (Posix.PosixException e) {
      LOG.log(
          System.Logger.Level.INFO,
          "cannot start a process inside a cgroup ("
              + e.getMessage()
              + "): processes are"
              + " started by posix_spawn and moved into their cgroups");
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      Posix.close(pidfd);
      containment.end(PROBE_GROUP);
    }
  }

  /** Waits (bounded) for the probe to exit; whether it exited 0. */
  private static boolean lived(int pid, int pidfd) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Posix.Exit exit;
    while ((exit = Posix.reap(pidfd)) == null && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    if (exit == null) {
      Posix.kill(pid, Signal.KILL.number());
    }
    boolean lived = exit != null && exit.signal() == 0 && exit.exitCode() == 0;
    if (!lived) {
      LOG.log(
          System.Logger.Level.WARNING,
          "a process born into a cgroup did not live ("
              + exit
              + "): processes are started by"
              + " posix_spawn and moved into their cgroups");
    }
    return lived;
  }
}
