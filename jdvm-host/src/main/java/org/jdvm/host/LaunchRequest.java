package org.jdvm.host;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything needed to start one process.
 *
 * @param argv the command and its arguments; {@code argv.get(0)} is resolved on the PATH
 * @param environment the complete environment of the new process
 * @param workingDirectory where it starts, or {@code null} for the controller's directory
 * @param stdin whether its standard input is a pipe its spawner feeds ({@link StdinPipe}); else it
 *     reads {@code /dev/null}
 * @param mergeStderr {@code PMIX_IOF_MERGE_STDERR_STDOUT}: its standard error is its standard
 *     output (one pipe, fd 2 a copy of fd 1), so what it writes to either arrives in order, as
 *     stdout; the host holds one descriptor for its output instead of two
 * @param cpus the cpus it is bound to from before it runs (kernel numbers), or {@code null}: not
 *     bound (it runs where its host may)
 */
public record LaunchRequest(
    List<String> argv,
    Map<String, String> environment,
    Path workingDirectory,
    boolean stdin,
    boolean mergeStderr,
    BitSet cpus) {
  public LaunchRequest {
    argv = List.copyOf(argv);
    cpus = cpus == null ? null : (BitSet) cpus.clone();
    if (cpus != null && cpus.isEmpty()) {
      throw new IllegalArgumentException("bound to no cpu");
    }
    environment = Map.copyOf(environment);
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("no command to launch");
    }
    Objects.requireNonNull(argv.get(0));
  }

  /** A process that is not bound. */
  public LaunchRequest(
      List<String> argv,
      Map<String, String> environment,
      Path workingDirectory,
      boolean stdin,
      boolean mergeStderr) {
    this(argv, environment, workingDirectory, stdin, mergeStderr, null);
  }

  /** A process with its stdout and stderr apart. */
  public LaunchRequest(
      List<String> argv, Map<String, String> environment, Path workingDirectory, boolean stdin) {
    this(argv, environment, workingDirectory, stdin, false);
  }

  /** A process that reads {@code /dev/null}. */
  public LaunchRequest(List<String> argv, Map<String, String> environment, Path workingDirectory) {
    this(argv, environment, workingDirectory, false);
  }

  /** The same launch with this environment (a relay rewriting the server's address). */
  public LaunchRequest withEnvironment(Map<String, String> env) {
    return new LaunchRequest(argv, env, workingDirectory, stdin, mergeStderr, cpus);
  }

  /** The same launch bound to these cpus ({@code null}: not bound). */
  public LaunchRequest boundTo(BitSet set) {
    return new LaunchRequest(argv, environment, workingDirectory, stdin, mergeStderr, set);
  }
}
