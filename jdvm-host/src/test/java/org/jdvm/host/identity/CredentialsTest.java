package org.jdvm.host.identity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CredentialsTest {
  @Test
  void aProcCredentialProvesOneNameAndNoOther() {
    Credentials c = Credentials.generate();
    String cred = c.procCredential("jdvm@3", 0);
    assertThat(c.isProcCredential("jdvm@3", 0, cred)).isTrue();
    assertThat(c.isProcCredential("jdvm@3", 1, cred)).isFalse();
    assertThat(c.isProcCredential("jdvm@30", 0, cred)).isFalse();
    assertThat(c.isProcCredential("jdvm@3", 0, null)).isFalse();
    assertThat(c.isSchedulerCredential(cred)).isFalse();
  }

  @Test
  void anotherDvmsSecretProvesNothingHere() {
    Credentials a = Credentials.generate();
    Credentials b = Credentials.generate();
    assertThat(b.isProcCredential("jdvm@1", 0, a.procCredential("jdvm@1", 0))).isFalse();
    assertThat(b.isSchedulerCredential(a.schedulerCredential())).isFalse();
    assertThat(b.isSecret(a.secretHex())).isFalse();
  }

  @Test
  void theSecretSurvivesARoundTripThroughItsFile() {
    Credentials a = Credentials.generate();
    Credentials b = Credentials.fromSecretHex(a.secretHex() + "\n");
    assertThat(b.schedulerCredential()).isEqualTo(a.schedulerCredential());
    assertThat(b.isSecret(a.secretHex())).isTrue();
  }
}
