package org.jdvm.endpoint.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.body.CommitRequest;
import org.jdvm.pmix.body.FenceRequest;
import org.jdvm.pmix.body.KeysRequest;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;
import org.junit.jupiter.api.Test;

/**
 * What the endpoint checks while a body is read: its limits are {@code PMIX_ERR_OUT_OF_RESOURCE},
 * its rules for keys and commits {@code PMIX_ERR_BAD_PARAM}, each raised by the body's codec at the
 * field it judges.
 */
class RequestChecksTest {
  private static final WireFormat F = WireFormat.V41;
  private static final EndpointLimits TWO = new EndpointLimits(8, 2, 2, 8, 8, 1 << 20, 8);
  private final RequestChecks checks = new RequestChecks(TWO);

  private interface Call {
    void run() throws Exception;
  }

  private static int refusal(Call call) {
    BadRequest e = catchThrowableOfType(BadRequest.class, call::run);
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  private static Unpacker after(byte[] body) {
    Unpacker in = new Unpacker(F, body);
    in.unpackCommand();
    return in;
  }

  @Test
  void countsPastTheLimitsAreOutOfResource() throws Exception {
    checks.procs(2);
    checks.infos(2);
    checks.keys(2);
    assertThat(refusal(() -> checks.procs(3))).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(refusal(() -> checks.infos(3))).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(refusal(() -> checks.keys(1L << 40))).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    byte[] fence =
        new FenceRequest(List.of(new Proc("a", 0), new Proc("a", 1), new Proc("a", 2)), List.of())
            .write(F);
    assertThat(refusal(() -> FenceRequest.read(after(fence), checks)))
        .isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
  }

  @Test
  void aKeyNamedMustBeOneAndACommitMayCarryNoReservedKeyOrUnknownScope() throws Exception {
    checks.key("k");
    for (String bad : new String[] {null, "", "k".repeat(512)}) {
      assertThat(refusal(() -> checks.key(bad))).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    }
    byte[] lookup = new KeysRequest(Commands.LOOKUPNB_CMD, 0, List.of(""), List.of()).write(F);
    assertThat(refusal(() -> KeysRequest.read(after(lookup), Commands.LOOKUPNB_CMD, checks)))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);

    checks.entry(new KVal("btl.tcp", Value.bool(true)));
    assertThat(refusal(() -> checks.entry(new KVal("pmix.hname", Value.bool(true)))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(() -> checks.entry(new KVal("", Value.bool(true)))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    for (int scope = 1; scope <= 3; scope++) {
      checks.scope(scope);
    }
    assertThat(refusal(() -> checks.scope(0))).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    byte[] commit =
        CommitRequest.of(List.of(new KVal("pmix.rank", Value.uint32(0))), null).write(F);
    assertThat(refusal(() -> CommitRequest.read(after(commit), checks)))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }
}
