package org.jdvm.server.agents;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code DIR/local-agents}: the pid and start time of each local node agent ({@link
 * LocalAgentStarter}), one per line, so that {@code jdvm stop} can make sure, by pid, that none
 * outlives its DVM (and a start on the directory, that none of a killed DVM's is left). The start
 * time guards against a pid the kernel gave again to another process.
 */
public final class LocalAgentPids {
  /** The file's name in the DVM's directory. */
  public static final String FILE = "local-agents";

  private LocalAgentPids() {}

  /** Records {@code pids} (those still alive) in {@code dir}; none removes the file. */
  public static void write(Path dir, List<Long> pids) throws IOException {
    StringBuilder b = new StringBuilder();
    for (long pid : pids) {
      ProcessHandle.of(pid)
          .flatMap(h -> h.info().startInstant())
          .ifPresent(t -> b.append(pid).append(' ').append(t).append('\n'));
    }
    Path file = dir.resolve(FILE);
    if (b.isEmpty()) {
      Files.deleteIfExists(file);
      return;
    }
    Path tmp = dir.resolve(FILE + ".tmp");
    Files.writeString(tmp, b);
    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** The recorded agents still running (same pid, same start time); none without the file. */
  public static List<ProcessHandle> running(Path dir) {
    List<ProcessHandle> out = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(dir.resolve(FILE));
    } catch (IOException e) {
      return out;
    }
    for (String line : lines) {
      String[] f = line.strip().split(" ");
      if (f.length != 2) {
        continue;
      }
      try {
        long pid = Long.parseLong(f[0]);
        Instant started = Instant.parse(f[1]);
        // An agent that exited but was not reaped (its DVM died: it belongs to the nearest child
        // subreaper, which need not reap it) has ended too.
        Optional<ProcessHandle> h =
            ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(p -> !org.jdvm.host.os.Containment.zombie((int) pid));
        if (h.isPresent() && h.get().info().startInstant().map(started::equals).orElse(false)) {
          out.add(h.get());
        }
      } catch (RuntimeException e) {
        // a damaged line names nobody
      }
    }
    return out;
  }

  /**
   * Ends the recorded agents still running — TERM (each ends its processes, TERM then KILL), then
   * KILL after {@code graceMillis} — and removes the file.
   *
   * @return how many were still running
   */
  public static int endLeftovers(Path dir, long graceMillis) {
    List<ProcessHandle> left = running(dir);
    left.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
    for (ProcessHandle h : left) {
      try {
        h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
    try {
      Files.deleteIfExists(dir.resolve(FILE));
    } catch (IOException e) {
      // gone with the directory, or not ours to remove
    }
    return left.size();
  }
}
