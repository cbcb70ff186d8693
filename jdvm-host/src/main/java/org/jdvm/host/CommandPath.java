package org.jdvm.host;

import java.nio.file.Files;
import java.nio.file.Path;

/** The program a command names, found the way a shell finds it. */
final class CommandPath {
  private CommandPath() {}

  /**
   * Resolves the command with the process's own PATH: a name containing a slash is taken relative
   * to the working directory; a bare name is looked up on PATH.
   *
   * @return the program, absolute, or {@code null} if there is no such executable file
   */
  static Path resolve(LaunchRequest request) {
    String cmd = request.argv().get(0);
    Path cwd = request.workingDirectory() != null ? request.workingDirectory() : Path.of("");
    if (cmd.contains("/")) {
      Path p = cwd.resolve(cmd);
      return isExecutableFile(p) ? p.toAbsolutePath() : null;
    }
    String path = request.environment().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
    for (String dir : path.split(":")) {
      Path p = cwd.resolve(dir.isEmpty() ? "." : dir).resolve(cmd);
      if (isExecutableFile(p)) {
        return p.toAbsolutePath();
      }
    }
    return null;
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }
}
