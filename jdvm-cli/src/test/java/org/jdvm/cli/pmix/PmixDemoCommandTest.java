package org.jdvm.cli.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.jdvm.cli.CliRun;
import org.jdvm.cli.Main;
import org.jdvm.pmix.WireFormat;
import org.junit.jupiter.api.Test;

class PmixDemoCommandTest {
  @Test
  void theDemoShowsBothPeersBytesAndDecodesThemBack() {
    CliRun run = CliRun.of("pmix", "demo");

    assertThat(run.status()).isEqualTo(Main.EXIT_OK);
    assertThat(run.err()).isEmpty();
    assertThat(run.out())
        .contains("v61, a master-era peer")
        .contains("v41, a libpmix 4.2.2 peer")
        .contains("Unpacked from the v61 bytes: ALLOC_CMD, NEW, 6 infos")
        .contains("PMIX_ALLOC_INHERIT CHILD")
        .contains("PMIX_ERR_UNKNOWN_DATA_TYPE")
        .contains("PMIX_ERROR")
        .doesNotContain("packed?!");
  }

  @Test
  void theTwoRequestsDifferOnlyInTheInheritancesTypeTag() {
    byte[] v61 = PmixDemoCommand.request(WireFormat.V61, PmixDemoCommand.infos(true));
    byte[] v41 = PmixDemoCommand.request(WireFormat.V41, PmixDemoCommand.infos(false));

    assertThat(v61).hasSameSizeAs(v41);
    int differences = 0;
    for (int i = 0; i < v61.length; i++) {
      if (v61[i] != v41[i]) {
        differences++;
        assertThat(HexFormat.of().toHexDigits(v61[i]) + HexFormat.of().toHexDigits(v41[i]))
            .isEqualTo("4b0c");
      }
    }
    assertThat(differences).isEqualTo(1);
  }
}
