package org.jdvm.server.agents;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jdvm.scheduler.SchedulerPort;
import org.jdvm.scheduler.slurm.SlurmCommands;
import org.jdvm.scheduler.slurm.SlurmNames;
import org.jdvm.scheduler.slurm.SlurmSchedulerPort;

/**
 * Starts node agents inside a Slurm job (architecture.md §5): one {@code srun --overlap} step per
 * host, so that the agent takes none of the job's CPUs from the processes it will launch, {@code
 * --kill-on-bad-exit} so that a failed agent ends its step, {@code --mpi=none} and {@code
 * --cpu-bind=none} so that Slurm neither wires the agent into an MPI plugin nor pins it. The argv
 * is passed as a list (no shell anywhere on this side), the host and job id are validated ({@link
 * SlurmNames}), and the secret goes to srun's stdin, which srun forwards to the one task: it is
 * never on a command line or in the environment.
 */
public final class SrunAgentStarter implements AgentStarter {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /** Lines of srun's and the agent's output kept for {@link Handle#lastOutput}. */
  static final int KEEP_LINES = 20;

  /** How long a stopped srun gets to end its step before it is killed. */
  static final long STOP_GRACE_MS = 10_000;

  private final SlurmCommands commands;
  private final Function<String, String> jobOfHost;

  /**
   * @param jobOfHost the Slurm job that holds a host (throws {@link IllegalArgumentException} for a
   *     host the DVM holds no job on)
   */
  public SrunAgentStarter(SlurmCommands commands, Function<String, String> jobOfHost) {
    this.commands = commands;
    this.jobOfHost = jobOfHost;
  }

  /**
   * Agents on nodes a scheduler granted in its jobs ({@link SchedulerPort#grantsInJobs}, Slurm):
   * each in the job that holds it ({@code srun --overlap --jobid <the node's job>}); the port is
   * asked only which job that is ({@link SchedulerPort#jobOf}).
   */
  public static SrunAgentStarter ofGrants(SchedulerPort scheduler) {
    return new SrunAgentStarter(
        SlurmSchedulerPort.systemCommands(Map.of()),
        node ->
            scheduler
                .jobOf(node)
                .orElseThrow(
                    () -> new IllegalArgumentException("no Slurm job of this DVM holds " + node)));
  }

  /** Agents inside the allocation {@code jdvm start} runs in. */
  public static SrunAgentStarter inJob(SlurmCommands commands, String jobId) {
    SlurmNames.jobId(jobId);
    return new SrunAgentStarter(commands, host -> jobId);
  }

  /** The srun command line that carries {@code agentArgv} to {@code host} in {@code jobId}. */
  public static List<String> argv(String jobId, String host, List<String> agentArgv) {
    if (agentArgv.isEmpty()
        || agentArgv.getFirst().isEmpty()
        || agentArgv.getFirst().startsWith("-")) {
      throw new IllegalArgumentException("the agent's command must be a program, not an option");
    }
    List<String> argv =
        new ArrayList<>(
            List.of(
                "srun",
                "--overlap",
                "--jobid=" + SlurmNames.jobId(jobId),
                "--nodes=1",
                "--ntasks=1",
                "--nodelist=" + SlurmNames.node(host),
                "--kill-on-bad-exit=1",
                "--mpi=none",
                "--cpu-bind=none",
                "--job-name=jdvm-agent",
                "--quiet"));
    argv.addAll(agentArgv);
    return argv;
  }

  @Override
  public Handle start(String host, List<String> argv, byte[] secret) throws IOException {
    List<String> command;
    try {
      command = argv(jobOfHost.apply(host), host, argv);
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "cannot start an agent on " + SlurmNames.shown(host) + ": " + e.getMessage());
    }
    Process srun = commands.start(command);
    try (OutputStream stdin = srun.getOutputStream()) {
      stdin.write(secret);
    } catch (IOException e) {
      // srun already ended: its exit status and output say why.
    }
    Srun handle = new Srun(srun, new ArrayDeque<>());
    handle.relay(srun.getInputStream(), host);
    handle.relay(srun.getErrorStream(), host);
    return handle;
  }

  /**
   * The srun client carrying one agent.
   *
   * @param tail the last {@link #KEEP_LINES} lines srun and the agent wrote, for failure messages
   */
  private record Srun(Process process, ArrayDeque<String> tail) implements Handle {
    @Override
    public long pid() {
      return process.pid();
    }

    @Override
    public CompletableFuture<Integer> onExit() {
      return process.onExit().thenApply(Process::exitValue);
    }

    @Override
    public String lastOutput() {
      synchronized (tail) {
        return String.join("\n", tail);
      }
    }

    /** SIGTERM to srun, which forwards it to the step; SIGKILL after a grace. */
    @Override
    public void stop() {
      if (!process.isAlive()) {
        return;
      }
      process.destroy();
      try {
        if (!process.waitFor(STOP_GRACE_MS, TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
          process.waitFor(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }

    /** The agent's output (and srun's) goes to the log a line at a time, and to the tail. */
    void relay(InputStream in, String host) {
      Thread.ofVirtual().start(() -> readLines(in, host));
    }

    private void readLines(InputStream in, String host) {
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          String l = line.length() > 1000 ? line.substring(0, 1000) + "…" : line;
          LOG.log(System.Logger.Level.INFO, "agent@" + host + ": " + l);
          synchronized (tail) {
            tail.addLast(l);
            if (tail.size() > KEEP_LINES) {
              tail.removeFirst();
            }
          }
        }
      } catch (IOException e) {
        // srun ended
      }
    }
  }
}
