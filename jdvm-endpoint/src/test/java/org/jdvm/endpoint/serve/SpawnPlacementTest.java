package org.jdvm.endpoint.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;

/**
 * The placement and binding directives of a spawn ({@link SpawnPlacement}): job-level ones reach
 * every app's info, an app's own win, and what the binder or the core cannot take is refused before
 * the core sees the spawn.
 */
class SpawnPlacementTest {
  private static App app(Info... infos) {
    return new App("true", List.of("true"), List.of(), null, 1, List.of(infos));
  }

  private static Info s(String key, String v) {
    return Info.of(key, Value.string(v));
  }

  private static int refusal(List<Info> job, App a) {
    BadRequest e =
        catchThrowableOfType(BadRequest.class, () -> SpawnPlacement.fold(job, List.of(a)));
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  private static String value(App a, String key) {
    return a.info().stream()
        .filter(i -> i.key().equals(key))
        .map(
            i ->
                i.value().type() == org.jdvm.pmix.DataType.STRING
                    ? i.value().asString()
                    : Long.toString(i.value().asLong()))
        .findFirst()
        .orElse(null);
  }

  @Test
  void jobDirectivesReachEveryAppAndAnAppsOwnWin() throws Exception {
    List<Info> job =
        List.of(
            s(PmixKeys.MAPBY, "core:PE=1"),
            s(PmixKeys.BINDTO, "core"),
            Info.of(PmixKeys.REPORT_BINDINGS, Value.bool(true)));
    List<App> apps = SpawnPlacement.fold(job, List.of(app(), app(s(PmixKeys.BINDTO, "hwthread"))));
    assertThat(value(apps.get(0), PmixKeys.BINDTO)).isEqualTo("core");
    assertThat(value(apps.get(1), PmixKeys.BINDTO)).isEqualTo("hwthread");
    assertThat(value(apps.get(1), PmixKeys.MAPBY)).isEqualTo("core:PE=1");
    assertThat(apps.get(1).info().stream().filter(i -> i.key().equals(PmixKeys.BINDTO))).hasSize(1);
    assertThat(SpawnPlacement.fold(List.of(), List.of(app())).get(0).info()).isEmpty();
  }

  @Test
  void objectMappingsFillNodesBySlotAndNodeGoesRoundThem() throws Exception {
    assertThat(SpawnPlacement.nodeMapBy(List.of(s(PmixKeys.MAPBY, "socket:PE=2"))))
        .isEqualTo(MapBy.SLOT);
    assertThat(SpawnPlacement.nodeMapBy(List.of(s(PmixKeys.MAPBY, "node:OVERSUBSCRIBE"))))
        .isEqualTo(MapBy.NODE);
    assertThat(SpawnPlacement.nodeMapBy(List.of())).isEqualTo(MapBy.SLOT);
  }

  @Test
  void whatTheBinderCannotReadIsABadParameter() {
    assertThat(refusal(List.of(s(PmixKeys.BINDTO, "l3cache")), app()))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(List.of(), app(s(PmixKeys.MAPBY, "core:PE=x"))))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(List.of(Info.of(PmixKeys.CPUS_PER_PROC, Value.uint32(0))), app()))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(refusal(List.of(Info.of(PmixKeys.BINDTO, Value.uint32(1))), app()))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  private static int fillRefusal(List<Info> job, App a) {
    BadRequest e =
        catchThrowableOfType(BadRequest.class, () -> SpawnPlacement.nodeFill(job, List.of(a)));
    assertThat(e).as("a refusal").isNotNull();
    return e.status();
  }

  @Test
  void perNodeCountsAndOversubscriptionBecomeTheCoresNodeFill() throws Exception {
    assertThat(SpawnPlacement.nodeFill(List.of(s(PmixKeys.PPR, "2:node")), List.of(app())))
        .isEqualTo(new NodeFill(2, false));
    assertThat(
            SpawnPlacement.nodeFill(
                List.of(s(PmixKeys.MAPBY, "ppr:3:node:OVERSUBSCRIBE")), List.of(app())))
        .isEqualTo(new NodeFill(3, true));
    assertThat(
            SpawnPlacement.nodeFill(
                List.of(Info.of(PmixKeys.NO_OVERSUBSCRIBE, Value.bool(false))), List.of(app())))
        .isEqualTo(new NodeFill(0, true));
    assertThat(
            SpawnPlacement.nodeFill(
                List.of(
                    s(PmixKeys.MAPBY, "slot:OVERSUBSCRIBE"),
                    Info.of(PmixKeys.NO_OVERSUBSCRIBE, Value.bool(true))),
                List.of(app())))
        .as("PMIX_NO_OVERSUBSCRIBE wins over the modifier")
        .isNull();
    assertThat(SpawnPlacement.nodeFill(List.of(s(PmixKeys.MAPBY, "core")), List.of(app())))
        .isNull();
    assertThat(
            SpawnPlacement.nodeFill(
                List.of(), List.of(app(Info.of(PmixKeys.NO_OVERSUBSCRIBE, Value.bool(true))))))
        .as("an app may say what is the default")
        .isNull();
    assertThat(SpawnPlacement.nodeMapBy(List.of(s(PmixKeys.MAPBY, "ppr:2:node"))))
        .isEqualTo(MapBy.SLOT);
    assertThat(SpawnPlacement.fold(List.of(s(PmixKeys.PPR, "2:node")), List.of(app()))).hasSize(1);
  }

  @Test
  void perObjectCountsAndPerAppFillsAreNotSupportedMalformedOnesBadParameters() {
    assertThat(fillRefusal(List.of(s(PmixKeys.MAPBY, "ppr:2:socket")), app()))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(fillRefusal(List.of(s(PmixKeys.PPR, "1:core")), app()))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(fillRefusal(List.of(), app(s(PmixKeys.PPR, "1:node"))))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(fillRefusal(List.of(), app(Info.of(PmixKeys.NO_OVERSUBSCRIBE, Value.bool(false)))))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(fillRefusal(List.of(s(PmixKeys.PPR, "node")), app()))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(fillRefusal(List.of(s(PmixKeys.PPR, "0:node")), app()))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(
            fillRefusal(List.of(s(PmixKeys.PPR, "1:node"), s(PmixKeys.MAPBY, "ppr:2:node")), app()))
        .isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }

  @Test
  void whatTheCoreCannotDoYetIsNotSupported() {
    assertThat(refusal(List.of(s(PmixKeys.RANKBY, "socket")), app()))
        .isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
  }
}
