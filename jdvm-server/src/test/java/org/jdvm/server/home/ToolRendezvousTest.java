package org.jdvm.server.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.jdvm.host.identity.LoopbackPeers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ToolRendezvous}: the files libpmix tools search for, safe among other users. */
class ToolRendezvousTest {
  private static final String URI = "jdvm-1@0.0;tcp4://127.0.0.1:5";
  private static final String HOST = ToolRendezvous.hostname();

  @TempDir Path tmp;

  private Path base() {
    return tmp.resolve("jdvm." + HOST + "." + LoopbackPeers.ownUid());
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void writesTheFilesAToolSearchesForOwnerOnlyAndRemovesThemAtClose() throws Exception {
    Path dir;
    try (ToolRendezvous r =
        ToolRendezvous.publish(ToolRendezvous.Mode.SESSION, tmp, URI, "jdvm-1@0")) {
      dir = r.dir();
      assertThat(dir.getParent()).isEqualTo(base());
      String pid = Long.toString(ProcessHandle.current().pid());
      assertThat(names(dir))
          .containsExactly(
              "lock",
              "pmix." + HOST + ".tool",
              "pmix." + HOST + ".tool." + pid,
              "pmix." + HOST + ".tool.jdvm-1@0");
      assertThat(Files.readString(dir.resolve("pmix." + HOST + ".tool." + pid)))
          .isEqualTo(URI + "\nv4.2.2\n");
      for (Path p : List.of(base(), dir)) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
            .isEqualTo("rwx------");
      }
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(dir.resolve("pmix." + HOST + ".tool"))))
          .isEqualTo("rw-------");
      assertThat(r.toolEnvironment()).containsEntry("PMIX_SYSTEM_TMPDIR", dir.toString());
    }
    assertThat(dir).doesNotExist();
  }

  @Test
  void aDeadDvmsDirectoryIsSweptAndALiveOnesIsKept() throws Exception {
    Files.createDirectories(base());
    Files.setPosixFilePermissions(base(), PosixFilePermissions.fromString("rwx------"));
    Path dead = Files.createDirectory(base().resolve("dvm.999999.1"));
    Files.createFile(dead.resolve("lock"));
    Files.writeString(dead.resolve("pmix." + HOST + ".tool"), "old@0.0;tcp4://127.0.0.1:9\n");
    try (ToolRendezvous live =
            ToolRendezvous.publish(ToolRendezvous.Mode.SESSION, tmp, URI, "jdvm-1@0");
        ToolRendezvous second =
            ToolRendezvous.publish(ToolRendezvous.Mode.SESSION, tmp, URI + "1", "jdvm-2@0")) {
      assertThat(dead).as("its lock is free: a killed DVM's").doesNotExist();
      assertThat(live.dir()).as("its lock is held").exists();
      assertThat(second.dir()).exists().isNotEqualTo(live.dir());
    }
  }

  @Test
  void aBaseThatIsALinkOrOpenToOthersIsNeverWrittenInto() throws Exception {
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.createSymbolicLink(base(), elsewhere);
    assertThat(ToolRendezvous.publish(ToolRendezvous.Mode.SESSION, tmp, URI, "jdvm-1@0")).isNull();
    assertThat(names(elsewhere)).isEmpty();
    assertThatThrownBy(
            () -> ToolRendezvous.publish(ToolRendezvous.Mode.SYSTEM, tmp, URI, "jdvm-1@0"))
        .hasMessageContaining("not a directory");

    Files.delete(base());
    Files.createDirectory(base());
    Files.setPosixFilePermissions(base(), PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(ToolRendezvous.publish(ToolRendezvous.Mode.SESSION, tmp, URI, "jdvm-1@0")).isNull();
    assertThat(ToolRendezvous.ownedDirectory(base(), LoopbackPeers.ownUid()))
        .contains("open to others");
  }

  @Test
  void anotherUsersBaseIsRefused() throws Exception {
    assumeTrue(LoopbackPeers.ownUid() == 0, "needs root to make a directory another user's");
    Files.createDirectory(
        base(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.setAttribute(base(), "unix:uid", 65534);
    assertThat(ToolRendezvous.ownedDirectory(base(), 0)).contains("belongs to uid 65534");
    assertThat(ToolRendezvous.publish(ToolRendezvous.Mode.SESSION, tmp, URI, "jdvm-1@0")).isNull();
  }

  @Test
  void aSystemServerRegistersOnceAndReplacesOnlyADeadOnesFile() throws Exception {
    Path sys = tmp.resolve("pmix.sys." + HOST);
    try (ToolRendezvous r =
        ToolRendezvous.publish(ToolRendezvous.Mode.SYSTEM, tmp, URI, "jdvm-1@0")) {
      assertThat(Files.readString(sys)).isEqualTo(URI + "\nv4.2.2\n");
      assertThatThrownBy(
              () -> ToolRendezvous.publish(ToolRendezvous.Mode.SYSTEM, tmp, "x", "jdvm-2@0"))
          .hasMessageContaining("names a running DVM");
      assertThat(Files.readString(sys)).startsWith(URI);
    }
    assertThat(sys).as("removed with its server").doesNotExist();
    Files.writeString(sys, "dead@0.0;tcp4://127.0.0.1:9\nv4.2.2\n");
    try (ToolRendezvous r =
        ToolRendezvous.publish(ToolRendezvous.Mode.SYSTEM, tmp, URI, "jdvm-1@0")) {
      assertThat(Files.readString(sys)).as("a dead server's file is replaced").startsWith(URI);
    }
  }
}
