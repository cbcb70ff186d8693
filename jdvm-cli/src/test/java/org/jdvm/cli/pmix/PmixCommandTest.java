package org.jdvm.cli.pmix;

import static org.assertj.core.api.Assertions.assertThat;

import org.jdvm.cli.CliRun;
import org.jdvm.cli.Main;
import org.junit.jupiter.api.Test;

/**
 * {@code jdvm pmix encode|decode}, in-process, against vectors of libpmix 4.2.2 (jdvm-pmix's test
 * resource {@code wire/vectors.json}, pmix-wire.md §12.2).
 */
class PmixCommandTest {
  private static final String INFO_JSON =
      "{\"key\":\"pmix.hname\",\"flags\":0,\"value\":{\"type\":\"PMIX_STRING\",\"data\":\"node1\"}}";
  private static final String INFO_HEX = "0216706d69782e686e616d650000030c6e6f64653100";

  @Test
  void thePmixToolsExitWithTheClisStatuses() {
    assertThat(PmixCommand.EXIT_OK).isEqualTo(Main.EXIT_OK);
    assertThat(PmixCommand.EXIT_REFUSED).isEqualTo(Main.EXIT_REFUSED);
  }

  @Test
  void encodePrintsTheHexOfOnePackCall() {
    CliRun run = CliRun.of("pmix", "encode", "--type", "PMIX_INFO", "--json", INFO_JSON);

    assertThat(run.status()).isEqualTo(Main.EXIT_OK);
    assertThat(run.out().strip()).isEqualTo(INFO_HEX);
    assertThat(run.err()).isEmpty();
  }

  @Test
  void encodeWritesTagsInAFullyDescribedBuffer() {
    CliRun run =
        CliRun.of("pmix", "encode", "--type", "UINT32", "--json", "5", "--fully-described");

    assertThat(run.out().strip()).isEqualTo("09020e05");
  }

  @Test
  void aJsonArrayPacksThatManyValuesInTheOneCall() {
    CliRun run = CliRun.of("pmix", "encode", "--type", "PMIX_UINT32", "--json", "[1,2,3]");

    assertThat(run.out().strip()).isEqualTo("06010203");
  }

  @Test
  void decodePrintsTheValueInTheVectorsJsonForm() {
    CliRun run = CliRun.of("pmix", "decode", "--type", "PMIX_INFO", "--hex", INFO_HEX);

    assertThat(run.status()).isEqualTo(Main.EXIT_OK);
    assertThat(run.out().strip()).isEqualTo(INFO_JSON);
  }

  @Test
  void decodePrintsAnArrayWhenTheCallHeldSeveralValues() {
    CliRun run =
        CliRun.of("pmix", "decode", "--type", "PMIX_PROC", "--hex", "04086a6f6200feffffff0f020000");

    assertThat(run.out().strip())
        .isEqualTo("[{\"nspace\":\"job\",\"rank\":4294967294},{\"nspace\":\"\",\"rank\":0}]");
  }

  @Test
  void decodeKeepsUnsigned64BitValuesExactAndIgnoresSpacing() {
    CliRun run =
        CliRun.of("pmix", "decode", "--type", "SIZE", "--hex", "02 ff:ff ff ff ff ff ff ff ff");

    assertThat(run.out().strip()).isEqualTo("18446744073709551615");
  }

  @Test
  void typeSeventyFiveIsRefusedOnV41AndCarriedOnV61() {
    String json =
        "{\"key\":\"pmix.alloc.inhrt\",\"value\":{\"type\":\"PMIX_ALLOC_INHERIT\",\"data\":2}}";

    CliRun v41 = CliRun.of("pmix", "encode", "--type", "PMIX_INFO", "--json", json);
    CliRun v61 =
        CliRun.of("pmix", "encode", "--type", "PMIX_INFO", "--json", json, "--component", "v61");

    assertThat(v41.status()).isEqualTo(Main.EXIT_REFUSED);
    assertThat(v41.err()).contains("PMIX_ERROR").doesNotContain("\tat ");
    assertThat(v41.err().strip().lines()).hasSize(1);
    assertThat(v61.status()).isEqualTo(Main.EXIT_OK);
    assertThat(v61.out().strip()).endsWith("004b02");
  }

  @Test
  void malformedInputIsOneLineOnStandardErrorAndStatusThree() {
    String[][] malformed = {
      {"pmix", "encode", "--type", "PMIX_INFO", "--json", "{\"key\":"},
      {"pmix", "encode", "--type", "PMIX_UINT8", "--json", "256"},
      {"pmix", "decode", "--type", "PMIX_INFO", "--hex", "0216706d"},
      {"pmix", "decode", "--type", "PMIX_INFO", "--hex", "not hex"},
      {"pmix", "decode", "--type", "PMIX_UINT32", "--hex", "0205ff"},
      {"pmix", "decode", "--type", "PMIX_ALLOC_INHERIT", "--hex", "0202"},
    };
    for (String[] args : malformed) {
      CliRun run = CliRun.of(args);
      assertThat(run.status()).as(String.join(" ", args)).isEqualTo(Main.EXIT_REFUSED);
      assertThat(run.err().strip().lines()).as(run.err()).hasSize(1);
      assertThat(run.out()).isEmpty();
    }
  }

  @Test
  void aCommandLineThatIsNotUnderstoodIsStatusTwo() {
    assertThat(CliRun.of("pmix", "encode", "--type", "PMIX_NOPE", "--json", "1").status())
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(CliRun.of("pmix", "decode", "--type", "PMIX_UINT8").status())
        .isEqualTo(Main.EXIT_USAGE);
    assertThat(
            CliRun.of("pmix", "encode", "--type", "INFO", "--json", "{}", "--component", "v3")
                .status())
        .isEqualTo(Main.EXIT_USAGE);
  }

  @Test
  void helpListsTheSubcommands() {
    CliRun run = CliRun.of("--help");

    assertThat(run.status()).isEqualTo(Main.EXIT_OK);
    assertThat(run.out()).contains("pmix").contains("demo");
    assertThat(CliRun.of("pmix", "--help").out()).contains("encode").contains("decode");
  }
}
