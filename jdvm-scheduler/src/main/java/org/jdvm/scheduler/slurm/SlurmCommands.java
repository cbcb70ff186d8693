package org.jdvm.scheduler.slurm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs Slurm's client commands as argv lists, never through a shell, with the environment they need
 * ({@code SLURM_CONF} when the cluster's configuration is not in {@code /etc/slurm}). Short
 * commands ({@code squeue}, {@code scontrol}, {@code scancel}) run to completion with a bound; long
 * ones ({@code salloc} waiting in the queue, {@code srun} carrying an agent) are started and handed
 * back. Output kept from a command is bounded: whatever the cluster prints past {@link #MAX_OUTPUT}
 * bytes is dropped.
 */
public interface SlurmCommands {
  /** The most bytes of a command's stdout or stderr that are kept. */
  int MAX_OUTPUT = 4 << 20;

  /** What a finished command said. {@code exit} is -1 if it was ended at its bound. */
  record Result(int exit, String out, String err) {
    /** The last non-empty line of stderr, or of stdout, for one-line messages. */
    public String lastLine() {
      for (String s : List.of(err, out)) {
        String[] lines = s.strip().split("\n");
        if (!lines[lines.length - 1].isBlank()) {
          return lines[lines.length - 1].strip();
        }
      }
      return "exit status " + exit;
    }
  }

  /** Runs {@code argv} to completion, ending it after {@code timeoutMs}. */
  Result run(List<String> argv, long timeoutMs) throws IOException;

  /** Starts {@code argv}; the caller owns the process. */
  Process start(List<String> argv) throws IOException;

  /** The real commands, found on the PATH, with {@code extraEnv} added to this process's. */
  static SlurmCommands system(Map<String, String> extraEnv) {
    Map<String, String> env = Map.copyOf(extraEnv);
    return new SlurmCommands() {
      @Override
      public Result run(List<String> argv, long timeoutMs) throws IOException {
        Process p = start(argv);
        p.getOutputStream().close();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread errReader = Thread.ofVirtual().start(() -> drain(p.getErrorStream(), err));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread outReader = Thread.ofVirtual().start(() -> drain(p.getInputStream(), out));
        try {
          if (!p.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            p.waitFor(2, TimeUnit.SECONDS);
            return new Result(-1, "", argv.getFirst() + " did not finish in " + timeoutMs + " ms");
          }
          outReader.join(TimeUnit.SECONDS.toMillis(2));
          errReader.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
          p.destroyForcibly();
          Thread.currentThread().interrupt();
          throw new IOException(argv.getFirst() + " interrupted");
        }
        synchronized (out) {
          synchronized (err) {
            return new Result(
                p.exitValue(),
                out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
          }
        }
      }

      @Override
      public Process start(List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv);
        Map<String, String> penv = pb.environment();
        penv.putAll(env);
        return pb.start();
      }
    };
  }

  /** Reads {@code in} to its end, keeping at most {@link #MAX_OUTPUT} bytes. */
  private static void drain(InputStream in, ByteArrayOutputStream sink) {
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) > 0) {
        synchronized (sink) {
          if (sink.size() < MAX_OUTPUT) {
            sink.write(buf, 0, Math.min(n, MAX_OUTPUT - sink.size()));
          }
        }
      }
    } catch (IOException e) {
      // the process ended or was ended; what was read is kept
    }
  }

  /** Environment for {@link #system}: {@code SLURM_CONF} set when {@code slurmConf} is given. */
  static Map<String, String> environment(String slurmConf) {
    Map<String, String> env = new HashMap<>();
    if (slurmConf != null) {
      env.put("SLURM_CONF", slurmConf);
    }
    return env;
  }
}
