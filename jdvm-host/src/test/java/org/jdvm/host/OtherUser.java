package org.jdvm.host;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdvm.host.identity.LoopbackPeers;

/**
 * A throwaway local user for tests of what another user can do to a DVM: created with {@code
 * useradd} when the tests run as root, removed (with every process it still runs) by {@link
 * #close}. Elsewhere the test is skipped, with the reason, by a JUnit assumption.
 */
public final class OtherUser implements AutoCloseable {
  private static final AtomicInteger SEQ = new AtomicInteger();

  public final String name;
  public final int uid;
  private final List<Process> started = new ArrayList<>();

  private OtherUser(String name, int uid) {
    this.name = name;
    this.uid = uid;
  }

  /** Creates the user; skips the test unless this JVM runs as root with useradd and setpriv. */
  public static OtherUser create() throws IOException, InterruptedException {
    assumeTrue(
        LoopbackPeers.ownUid() == 0,
        "a test of another local user needs root, to create a throwaway user");
    assumeTrue(
        new java.io.File("/usr/sbin/useradd").canExecute()
            && new java.io.File("/usr/bin/setpriv").canExecute(),
        "useradd and setpriv are needed to create and act as a throwaway user");
    String name = "jdvmt" + ProcessHandle.current().pid() % 100000 + "x" + SEQ.incrementAndGet();
    runAsRoot("/usr/sbin/useradd", "-M", "-N", "-s", "/usr/sbin/nologin", name);
    String id = output("/usr/bin/id", "-u", name).trim();
    return new OtherUser(name, Integer.parseInt(id));
  }

  /** Starts {@code command} as this user (its own uid and group, no supplementary groups). */
  public Process start(String... command) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + uid));
    cmd.add("--regid=" + gid());
    cmd.add("--clear-groups");
    cmd.addAll(List.of(command));
    Process p =
        new ProcessBuilder(cmd)
            .directory(new java.io.File("/"))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    started.add(p);
    return p;
  }

  /** Runs {@code command} as this user to its end; returns its exit status. */
  public int run(String... command) throws IOException, InterruptedException {
    Process p = start(command);
    p.getOutputStream().close();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + List.of(command));
    }
    return p.exitValue();
  }

  private int gid() throws IOException {
    try {
      return Integer.parseInt(output("/usr/bin/id", "-g", name).trim());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    for (Process p : started) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    runAsRoot("/usr/sbin/userdel", "-f", name);
  }

  private static void runAsRoot(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor(30, TimeUnit.SECONDS);
  }

  private static String output(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(List.of(cmd) + " failed");
    }
    return out;
  }
}
