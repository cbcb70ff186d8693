package org.jdvm.host;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A controller to be killed with SIGKILL by {@link ProcessHostContainmentTest}: opens a host on the
 * DVM directory given, starts a job that leaves a background child, a new-session child and a
 * double-forked one, and a daemon (new session, double fork), prints their pids on one line and
 * waits to be killed.
 */
public final class KilledHostMain {
  private KilledHostMain() {}

  public static void main(String[] args) throws Exception {
    ProcessHost host = new ProcessHost(Path.of(args[0]), Boolean.parseBoolean(args[1]));
    StringBuilder pids = new StringBuilder();
    host.start(
        "node0/job",
        new LaunchRequest(
            List.of("sh", "-c", ProcessHostContainmentTest.LEAVE_FOUR + "; sleep 300"),
            Map.of("PATH", "/usr/bin:/bin"),
            null),
        new ProcListener() {
          @Override
          public void output(Stream stream, byte[] chunk) {
            synchronized (pids) {
              pids.append(new String(chunk));
              if (pids.toString().split("\\s+").length >= 4 && pids.toString().endsWith("\n")) {
                System.out.print("pids " + pids.toString().replace('\n', ' ').trim() + "\n");
                System.out.flush();
              }
            }
          }

          @Override
          public void exited(int exitCode, int signal) {}
        });
    Thread.sleep(Long.MAX_VALUE);
  }
}
