package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;

/** {@link OutputFormat}: each line's prefix, as libpmix 4.2.2 and srun write it. */
class OutputFormatTest {
  private static final ZonedDateTime T = ZonedDateTime.of(2026, 11, 8, 9, 5, 3, 0, ZoneOffset.UTC);

  private static OutputFormat format(int procs, Info... infos) throws PmixException {
    SpawnRequest.Builder b = SpawnRequest.of("true").procs(procs);
    for (Info i : infos) {
      b.info(i);
    }
    return OutputFormat.of(b.build(), () -> T);
  }

  private static Info on(String key) {
    return Info.of(key, Value.bool(true));
  }

  private static String apply(OutputFormat f, String nspace, int rank, boolean err, String s) {
    return new String(
        f.apply(new Proc(nspace, rank), err, s.getBytes(StandardCharsets.UTF_8)),
        StandardCharsets.UTF_8);
  }

  @Test
  void noFormatAskedIsNoFormat() throws Exception {
    assertThat(format(1)).isNull();
    assertThat(format(1, Info.of(PmixKeys.IOF_TAG_OUTPUT, Value.bool(false)))).isNull();
  }

  @Test
  void tagsEachLineThatStartsInAChunkAndNotAContinuedOne() throws Exception {
    OutputFormat f = format(2, on(PmixKeys.IOF_TAG_OUTPUT));
    assertThat(apply(f, "dvm@3", 1, false, "a\nb")).isEqualTo("[3,1]<stdout>: a\n[3,1]<stdout>: b");
    assertThat(apply(f, "dvm@3", 1, false, "c\n")).isEqualTo("c\n");
    assertThat(apply(f, "plain", 0, true, "e\n")).isEqualTo("[plain,0]<stderr>: e\n");
  }

  @Test
  void fullnameRankAndTimestampAsLibpmixWritesThem() throws Exception {
    assertThat(apply(format(1, on(PmixKeys.IOF_TAG_FULLNAME_OUTPUT)), "dvm@3", 0, false, "x\n"))
        .isEqualTo("[dvm@3,0]<stdout>: x\n");
    assertThat(apply(format(1, on(PmixKeys.IOF_RANK_OUTPUT)), "dvm@3", 0, true, "x\n"))
        .isEqualTo("[0]<stderr>: x\n");
    assertThat(apply(format(1, on(PmixKeys.IOF_TIMESTAMP_OUTPUT)), "dvm@3", 0, false, "x\n"))
        .isEqualTo("[Sun Nov  8 09:05:03 2026]<stdout>: x\n");
    OutputFormat both = format(1, on(PmixKeys.IOF_TIMESTAMP_OUTPUT), on(PmixKeys.IOF_TAG_OUTPUT));
    assertThat(apply(both, "dvm@3", 0, false, "x\n"))
        .isEqualTo("[Sun Nov  8 09:05:03 2026][3,0]<stdout>: x\n");
  }

  @Test
  void labelAlignsTheRankToTheLastRanksDigitsAsSrunDoes() throws Exception {
    OutputFormat f = format(12, on(JdvmProtocol.IOF_LABEL));
    assertThat(apply(f, "dvm@3", 3, false, "x\n")).isEqualTo(" 3: x\n");
    assertThat(apply(f, "dvm@3", 11, false, "x\n")).isEqualTo("11: x\n");
    assertThat(apply(format(10, on(JdvmProtocol.IOF_LABEL)), "dvm@3", 9, false, "x\n"))
        .isEqualTo("9: x\n");
  }

  @Test
  void xmlAndDetailedTagsAreRefusedSayingSo() {
    for (String key : new String[] {PmixKeys.IOF_XML_OUTPUT, PmixKeys.IOF_TAG_DETAILED_OUTPUT}) {
      assertThatThrownBy(() -> format(1, on(key)))
          .isInstanceOf(PmixException.class)
          .hasMessageContaining(key)
          .satisfies(
              e ->
                  assertThat(((PmixException) e).status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED));
    }
  }
}
