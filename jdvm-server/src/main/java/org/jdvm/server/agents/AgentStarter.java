package org.jdvm.server.agents;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * How a node agent is started on a host: by ssh ({@link SshAgentStarter}), or by {@code srun}
 * inside a Slurm allocation. The starter runs {@code argv} on {@code host} and hands the agent the
 * DVM's secret on its standard input, so the secret never appears on a command line, in an
 * environment or in {@code ps}.
 */
public interface AgentStarter {
  /**
   * Starts {@code argv} on {@code host}.
   *
   * @param secret the bytes the agent reads from its standard input (the DVM secret and a newline)
   * @throws IOException if the local launcher process cannot be started at all
   */
  Handle start(String host, List<String> argv, byte[] secret) throws IOException;

  /** The local process that carries one agent (an ssh or srun client). */
  interface Handle {
    /** Its pid on this host. */
    long pid();

    /** Completes with its exit status when it ends. */
    CompletableFuture<Integer> onExit();

    /** The last lines it wrote (its own errors and the agent's), for a failure message. */
    String lastOutput();

    /** Ends it (the agent itself exits once its link to the controller is gone). */
    void stop();

    /** A handle on {@code p}, whose output {@code tail} keeps, ended by {@code stop}. */
    static Handle of(Process p, SshAgentStarter.Tail tail, Runnable stop) {
      return new Handle() {
        @Override
        public long pid() {
          return p.pid();
        }

        @Override
        public CompletableFuture<Integer> onExit() {
          return p.onExit().thenApply(Process::exitValue);
        }

        @Override
        public String lastOutput() {
          return tail.text();
        }

        @Override
        public void stop() {
          stop.run();
        }
      };
    }
  }
}
