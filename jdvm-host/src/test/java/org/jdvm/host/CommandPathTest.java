package org.jdvm.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command is found as a shell finds it, with the process's own PATH and working directory. */
class CommandPathTest {
  @TempDir Path dir;

  private Path file(String name, boolean executable) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "#!/bin/sh\n");
    Files.setPosixFilePermissions(
        p, PosixFilePermissions.fromString(executable ? "rwx------" : "rw-------"));
    return p;
  }

  private static Path resolve(String cmd, String path, Path cwd) {
    return CommandPath.resolve(new LaunchRequest(List.of(cmd), Map.of("PATH", path), cwd));
  }

  @Test
  void aBareNameIsLookedUpOnThePathOfTheProcess() throws Exception {
    Path tool = file("bin/tool", true);
    file("first/tool", false); // not executable: passed over
    Files.createDirectories(dir.resolve("dir/tool")); // a directory: passed over
    String path = dir.resolve("first") + ":" + dir.resolve("dir") + ":" + dir.resolve("bin");
    assertThat(resolve("tool", path, null)).isEqualTo(tool);
    assertThat(resolve("tool", "/nonexistent", null)).isNull();
    assertThat(resolve("tool", "bin", dir)).as("relative to the working directory").isEqualTo(tool);
    assertThat(resolve("tool", ":/nonexistent", dir.resolve("bin")))
        .as("an empty entry is the working directory")
        .isEqualTo(dir.resolve("bin/./tool"));
  }

  @Test
  void aNameWithASlashIsTakenRelativeToTheWorkingDirectory() throws Exception {
    Path tool = file("bin/tool", true);
    file("bin/data", false);
    assertThat(resolve("bin/tool", "/nonexistent", dir)).isEqualTo(tool);
    assertThat(resolve("./tool", "/nonexistent", dir.resolve("bin")))
        .isEqualTo(dir.resolve("bin/./tool"));
    assertThat(resolve("bin/data", "/nonexistent", dir)).isNull();
    assertThat(resolve(tool.toString(), "", null)).isEqualTo(tool);
  }
}
