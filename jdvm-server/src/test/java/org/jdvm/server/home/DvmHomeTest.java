package org.jdvm.server.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.identity.Credentials;
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
      home.publish("jdvm-1", "jdvm-1@0.0;tcp4://127.0.0.1:5", "127.0.0.1:5");
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
  void theContactFileNamesEveryWayInAndDisappearsWhenTheDvmStops() throws Exception {
    DvmHome home = DvmHome.claim(dir);
    home.publish("jdvm-1", "jdvm-1@0.0;tcp4://127.0.0.1:5", "127.0.0.1:5");
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
}
