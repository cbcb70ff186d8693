package org.jdvm.server.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.jdvm.host.OtherUser;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DvmHomeTest {
  @TempDir Path dir;

  @Test
  void secretsAreReadableByTheOwnerOnlyAndMatchTheCredentials() throws Exception {
    try (DvmHome home = DvmHome.claim(dir.resolve("d"))) {
      Path secret = home.dir().resolve(DvmHome.SECRET);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
          .isEqualTo("rw-------");
      Credentials again = Credentials.fromSecretHex(Files.readString(secret));
      assertThat(Files.readString(home.dir().resolve(DvmHome.SCHEDULER_CREDENTIAL)).trim())
          .isEqualTo(again.schedulerCredential())
          .isEqualTo(home.credentials().schedulerCredential());
    }
  }

  @Test
  void aSecondDvmCannotClaimADirectoryInUseAndIsToldWhichPidHasIt() throws Exception {
    try (DvmHome home = DvmHome.claim(dir)) {
      home.publish("jdvm-1", "jdvm-1@0.0;tcp4://127.0.0.1:5", "127.0.0.1:5", null);
      assertThatThrownBy(() -> DvmHome.claim(dir))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("already running")
          .hasMessageContaining("pid " + ProcessHandle.current().pid());
    }
    try (DvmHome again = DvmHome.claim(dir)) {
      assertThat(Files.exists(dir.resolve(DvmHome.CONTACT))).isFalse();
    }
  }

  @Test
  void theLockOfADirectoryIsSeenHeldWhileADvmHasItAndFreeAfterwards() throws Exception {
    assertThat(DvmHome.locked(dir)).as("no lock file yet").isFalse();
    try (DvmHome home = DvmHome.claim(dir)) {
      assertThat(DvmHome.locked(dir)).isTrue();
    }
    assertThat(DvmHome.locked(dir)).isFalse();
    try (DvmHome again = DvmHome.claim(dir)) {
      assertThat(again.dir()).isEqualTo(dir);
    }
  }

  @Test
  void theContactFileNamesEveryWayInAndDisappearsWhenTheDvmStops() throws Exception {
    DvmHome home = DvmHome.claim(dir);
    home.publish("jdvm-1", "jdvm-1@0.0;tcp4://127.0.0.1:5", "127.0.0.1:5", null);
    @SuppressWarnings("unchecked")
    Map<String, Object> contact =
        (Map<String, Object>) Json.parse(Files.readString(dir.resolve(DvmHome.CONTACT)));
    assertThat(contact)
        .containsEntry("name", "jdvm-1")
        .containsEntry("uri", "jdvm-1@0.0;tcp4://127.0.0.1:5")
        .containsEntry("unix", dir.resolve(DvmHome.SOCKET).toString())
        .containsKey("pid");
    home.close();
    assertThat(Files.exists(dir.resolve(DvmHome.CONTACT))).isFalse();
  }

  @Test
  void aNewDirectoryIsCreatedReadableByItsUserOnly() throws Exception {
    try (DvmHome home = DvmHome.claim(dir.resolve("new"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.dir())))
          .isEqualTo("rwx------");
    }
  }

  @Test
  void aDirectoryOthersMayWriteOrALinkInItsPlaceIsRefusedAndLeftAsItWas() throws Exception {
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> DvmHome.claim(shared))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("writable by other users");
    assertThat(shared.resolve("dvm.lock")).doesNotExist();

    Path real = Files.createDirectory(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    assertThatThrownBy(() -> DvmHome.claim(link))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a directory");
    assertThatThrownBy(() -> DvmHome.prepare(Path.of("")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("must not be empty");
  }

  @Test
  void linksLeftWhereTheDvmWritesAreReplacedNeverFollowed() throws Exception {
    Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
    Path home = Files.createDirectory(dir.resolve("home"));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    for (String name : List.of("dvm.json.tmp", "dvm.log", "secret", "scheduler.cred")) {
      Files.createSymbolicLink(home.resolve(name), victim);
    }
    try (DvmHome h = DvmHome.claim(home)) {
      DvmLogging.configure(h.log(), false);
      System.getLogger("org.jdvm.server.test").log(System.Logger.Level.INFO, "line=1");
      h.publish("jdvm-1", "jdvm-1@0.0;tcp4://127.0.0.1:5", "127.0.0.1:5", null);
      assertThat(Files.isSymbolicLink(h.log())).isFalse();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(h.log())))
          .isEqualTo("rw-------");
    } finally {
      DvmLogging.quiet();
    }
    assertThat(Files.readString(victim)).isEqualTo("precious\n");
  }

  @Test
  void anotherUsersDirectoryIsRefused() throws Exception {
    try (OtherUser other = OtherUser.create()) {
      Path theirs = Files.createDirectory(dir.resolve("theirs"));
      Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
      Files.setAttribute(theirs, "unix:uid", other.uid);
      assertThatThrownBy(() -> DvmHome.claim(theirs))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("belongs to uid " + other.uid);
      assertThat(theirs.resolve("dvm.lock")).doesNotExist();
    }
  }

  @Test
  void aWarningIsWrittenAtOnceAndAnInfoLineSoonWithoutAClose() throws Exception {
    Path log = dir.resolve("dvm.log");
    DvmLogging.RotatingLog handler = new DvmLogging.RotatingLog(log, 1 << 20, 2);
    handler.setFormatter(new DvmLogging.LineFormatter());
    try {
      handler.publish(new java.util.logging.LogRecord(java.util.logging.Level.INFO, "first=1"));
      handler.publish(new java.util.logging.LogRecord(java.util.logging.Level.WARNING, "bad=1"));
      assertThat(Files.readString(log))
          .as("a warning writes out what precedes it")
          .contains("first=1", "bad=1");
      handler.publish(new java.util.logging.LogRecord(java.util.logging.Level.INFO, "later=1"));
      org.jdvm.host.Await.until(
          () -> {
            try {
              return Files.readString(log).contains("later=1");
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          },
          "the INFO line written out by the flusher");
    } finally {
      handler.close();
    }
  }

  @Test
  void theLogIsBoundedAndKeepsTheNewestLinesWhenItRotates() throws Exception {
    Path log = dir.resolve("dvm.log");
    DvmLogging.RotatingLog handler = new DvmLogging.RotatingLog(log, 1000, 2);
    handler.setFormatter(new DvmLogging.LineFormatter());
    for (int i = 0; i < 200; i++) {
      handler.publish(new java.util.logging.LogRecord(java.util.logging.Level.INFO, "line=" + i));
    }
    handler.close();
    assertThat(Files.size(log)).isLessThanOrEqualTo(1000);
    assertThat(Files.size(dir.resolve("dvm.log.1"))).isLessThanOrEqualTo(1000);
    assertThat(dir.resolve("dvm.log.3")).doesNotExist();
    assertThat(Files.readString(log)).contains("line=199");
  }
}
