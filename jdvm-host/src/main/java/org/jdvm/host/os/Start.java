package org.jdvm.host.os;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * What a process is started with, by {@link Posix#spawn} or {@link NativeSpawn#spawn}: the leader
 * of a new session (so of a new process group), with every signal at its default action and none
 * blocked, and only fds 0, 1, 2 open.
 *
 * @param path the program
 * @param argv its arguments, {@code argv[0]} first
 * @param env its whole environment
 * @param cwd where it starts, or {@code null} for here
 * @param stdin the fd it reads, or -1 for {@code /dev/null}
 * @param stdout the fd it writes to as 1
 * @param stderr the fd it writes to as 2; {@code stdout} itself makes fd 2 a copy of fd 1 (merged)
 * @param cpus the cpus it is bound to from before its exec, or {@code null}: the caller's
 */
public record Start(
    Path path,
    List<String> argv,
    Map<String, String> env,
    Path cwd,
    int stdin,
    int stdout,
    int stderr,
    BitSet cpus) {
  /** A start that is not bound. */
  public Start(
      Path path,
      List<String> argv,
      Map<String, String> env,
      Path cwd,
      int stdin,
      int stdout,
      int stderr) {
    this(path, argv, env, cwd, stdin, stdout, stderr, null);
  }
}
