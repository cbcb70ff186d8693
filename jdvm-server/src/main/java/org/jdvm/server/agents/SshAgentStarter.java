package org.jdvm.server.agents;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts agents with ssh (or a command that takes ssh's arguments, such as the multihost tool's
 * {@code hostexec.sh}): {@code <launcher...> -o BatchMode=yes <host> <quoted argv>}. BatchMode
 * makes a host that would ask for a password or a host key fail at once instead of waiting for a
 * person. The remote command is quoted word by word for the remote shell ({@link ShellQuote}); the
 * host name was checked before ({@link HostList}), so it cannot pass as an ssh option. The secret
 * is written to ssh's standard input, which ssh forwards to the agent.
 */
public final class SshAgentStarter implements AgentStarter {
  /** Bytes of a launcher's output kept for a failure message. */
  static final int KEEP_OUTPUT_BYTES = 4096;

  private final List<String> launcher;

  /**
   * @param launcher the ssh command and its options, e.g. {@code [ssh]} or {@code [ssh, -F, cfg]}
   */
  public SshAgentStarter(List<String> launcher) {
    if (launcher.isEmpty()) {
      throw new IllegalArgumentException("no launcher command");
    }
    this.launcher = List.copyOf(launcher);
  }

  /** The local command line that starts {@code argv} on {@code host}. */
  public List<String> command(String host, List<String> argv) {
    HostList.checkName(host);
    List<String> cmd = new ArrayList<>(launcher);
    cmd.add("-o");
    cmd.add("BatchMode=yes");
    cmd.add(host);
    cmd.add(ShellQuote.join(argv));
    return cmd;
  }

  @Override
  public Handle start(String host, List<String> argv, byte[] secret) throws IOException {
    Process p = new ProcessBuilder(command(host, argv)).redirectErrorStream(true).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(secret);
    } catch (IOException e) {
      // ssh already ended: its exit and output say why.
    }
    Tail tail = new Tail();
    Thread.ofVirtual().name("jdvm-ssh-" + host).start(() -> tail.drain(p.getInputStream()));
    return Handle.of(p, tail, p::destroy);
  }

  /** The last {@link #KEEP_OUTPUT_BYTES} a process wrote; the rest is read and dropped. */
  static final class Tail {
    private final byte[] ring = new byte[KEEP_OUTPUT_BYTES];
    private long written;

    void drain(InputStream in) {
      byte[] buf = new byte[1024];
      try (in) {
        int n;
        while ((n = in.read(buf)) > 0) {
          synchronized (this) {
            for (int i = 0; i < n; i++) {
              ring[(int) (written++ % ring.length)] = buf[i];
            }
          }
        }
      } catch (IOException e) {
        // The process ended.
      }
    }

    synchronized String text() {
      int n = (int) Math.min(written, ring.length);
      byte[] out = new byte[n];
      for (int i = 0; i < n; i++) {
        out[i] = ring[(int) ((written - n + i) % ring.length)];
      }
      return new String(out, StandardCharsets.UTF_8).strip();
    }
  }
}
