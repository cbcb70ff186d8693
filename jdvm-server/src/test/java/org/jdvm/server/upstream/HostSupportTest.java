package org.jdvm.server.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jdvm.endpoint.serve.BadRequest;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.dict.AttributeDictionary;
import org.junit.jupiter.api.Test;

/** {@link HostSupport}: what {@code pattrs --host-fns} and {@code --host FN} are answered. */
class HostSupportTest {
  @Test
  void everyAttributeListedIsInTheDictionary() {
    HostSupport.FUNCTIONS.forEach(
        (fn, keys) ->
            keys.forEach(
                k -> assertThat(AttributeDictionary.byKey(k)).as(fn + " " + k).isPresent()));
  }

  @Test
  void theFunctionsComeAsOneStringWherePattrsReadsThem() throws BadRequest {
    List<Info> a = HostSupport.answer(List.of(Info.of(PmixKeys.HOST_FUNCTIONS, Value.bool(true))));
    assertThat(a).hasSize(1);
    assertThat(a.get(0).key()).isEqualTo(PmixKeys.HOST_FUNCTIONS);
    assertThat(a.get(0).value().data().toString())
        .startsWith("PMIx_Allocation_request,PMIx_Spawn,")
        .contains("PMIx_Query_info");
  }

  @Test
  void attributesComePerFunctionShortestFirstWithLinesPattrsCanPrint() throws BadRequest {
    List<Info> a =
        HostSupport.answer(List.of(Info.of(PmixKeys.HOST_ATTRIBUTES, Value.string("all"))));
    assertThat(a).hasSize(1);
    assertThat(a.get(0).key()).isEqualTo(PmixKeys.QUERY_ATTRIBUTE_SUPPORT);
    List<Object> perFunction = ((DataArray) a.get(0).value().data()).elements();
    int last = 0;
    for (Object o : perFunction) {
      Info fn = (Info) o;
      List<Object> regs = ((DataArray) fn.value().data()).elements();
      assertThat(regs.size()).as(fn.key() + " after a longer list").isGreaterThanOrEqualTo(last);
      last = regs.size();
      for (Object r : regs) {
        assertThat(((RegAttr) r).description()).allMatch(l -> l.length() <= HostSupport.LINE);
      }
    }
    long withAttributes = HostSupport.FUNCTIONS.values().stream().filter(l -> !l.isEmpty()).count();
    assertThat(perFunction).hasSize((int) withAttributes);
  }

  @Test
  void descriptionsAreCutAtSpacesAndAnOverlongWordAtTheLineEnd() {
    assertThat(HostSupport.lines("a b c")).containsExactly("a b c");
    String word = "x".repeat(HostSupport.LINE + 3);
    assertThat(HostSupport.lines("lead " + word + " tail"))
        .containsExactly("lead", "x".repeat(HostSupport.LINE), "xxx tail");
    String long9 = "one two three four five ".repeat(9).strip();
    assertThat(String.join(" ", HostSupport.lines(long9))).isEqualTo(long9);
  }

  @Test
  void anUnknownFunctionOrOnlyLibraryListsAreNotSupported() {
    assertThatThrownBy(
            () ->
                HostSupport.answer(
                    List.of(Info.of(PmixKeys.HOST_ATTRIBUTES, Value.string("PMIx_Nothing")))))
        .isInstanceOfSatisfying(
            BadRequest.class, e -> assertThat(e.status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED));
    assertThatThrownBy(() -> HostSupport.answer(List.of()))
        .isInstanceOf(BadRequest.class)
        .hasMessageContaining("PMIX_HOST_FUNCTIONS");
  }
}
