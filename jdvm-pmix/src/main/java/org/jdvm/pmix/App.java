package org.jdvm.pmix;

import java.util.List;

/**
 * One application of a spawn request ({@code pmix_app_t}, pmix-wire.md §4.4).
 *
 * @param cmd the executable, or {@code null}
 * @param argv the arguments, conventionally starting with the command itself
 * @param env {@code NAME=value} entries to add to the process environment
 * @param cwd the working directory, or {@code null} for the launcher's choice
 * @param maxprocs the number of processes to start
 * @param info per-application attributes
 */
public record App(
    String cmd, List<String> argv, List<String> env, String cwd, int maxprocs, List<Info> info) {
  public App {
    argv = List.copyOf(argv);
    env = List.copyOf(env);
    info = List.copyOf(info);
  }

  /** The names of the variables {@link #env} sets, without their values. */
  public List<String> envNames() {
    return env.stream().map(e -> e.indexOf('=') < 0 ? e : e.substring(0, e.indexOf('='))).toList();
  }

  /**
   * Names the environment's variables but never their values, which may be secrets: this is what
   * reaches a log line.
   */
  @Override
  public String toString() {
    return "App[cmd="
        + cmd
        + ", argv="
        + argv
        + ", env="
        + envNames()
        + ", cwd="
        + cwd
        + ", maxprocs="
        + maxprocs
        + ", info="
        + info
        + "]";
  }
}
