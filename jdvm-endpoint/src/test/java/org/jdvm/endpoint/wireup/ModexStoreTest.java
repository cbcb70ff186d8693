package org.jdvm.endpoint.wireup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;

/** What ranks committed, and gets of it (docs/wireup.md §c.1, §c.3), with a hand-driven clock. */
class ModexStoreTest {
  private final ManualTimer timer = new ManualTimer();
  private final ModexStore store = new ModexStore(100, timer);
  private final List<ModexStore.Fetched> got = new ArrayList<>();

  private static final Proc R0 = new Proc("dvm@2", 0);
  private static final Proc R1 = new Proc("dvm@2", 1);

  private static ModexStore.Entry entry(String key, String value) {
    return new ModexStore.Entry(key, Value.string(value), 10);
  }

  private static KVal kval(String key, String value) {
    return new KVal(key, Value.string(value));
  }

  private void get(Proc target, String key, Visibility v, boolean immediate) {
    store.get(target, key, v, immediate, 2000, got::add);
  }

  @Test
  void aPeerSeesTheBufferOfItsScopeAndItsOwnRankSeesBoth() {
    store.commit(
        R0, List.of(entry("l", "1"), entry("g", "3")), List.of(entry("r", "2"), entry("g", "3")));
    get(R0, "l", Visibility.LOCAL, false);
    get(R0, "r", Visibility.REMOTE, false);
    get(R0, "r", Visibility.OWN, false);
    assertThat(got)
        .containsExactly(
            new ModexStore.Fetched(PmixStatus.SUCCESS, List.of(kval("l", "1"), kval("g", "3"))),
            new ModexStore.Fetched(PmixStatus.SUCCESS, List.of(kval("r", "2"), kval("g", "3"))),
            new ModexStore.Fetched(
                PmixStatus.SUCCESS, List.of(kval("l", "1"), kval("g", "3"), kval("r", "2"))));
  }

  @Test
  void aKeyOnlyInTheOtherScopeIsNotFoundAtOnce() {
    store.commit(R0, List.of(entry("l", "1")), List.of(entry("r", "2")));
    get(R0, "r", Visibility.LOCAL, false);
    get(R0, "l", Visibility.REMOTE, false);
    assertThat(got).extracting(ModexStore.Fetched::status).containsOnly(PmixStatus.ERR_NOT_FOUND);
    assertThat(store.waiting()).isZero();
  }

  @Test
  void eachCommitReplacesKeyByKeyAndKeepsTheOthers() {
    store.commit(R0, List.of(entry("a", "1"), entry("b", "1")), List.of());
    store.commit(R0, List.of(entry("a", "2")), List.of());
    get(R0, "a", Visibility.LOCAL, false);
    assertThat(got.get(0).kvals()).containsExactly(kval("a", "2"), kval("b", "1"));
    assertThat(store.bytesOf(R0)).isEqualTo(20);
  }

  @Test
  void aMissingKeyWaitsForTheTargetsNextCommitThatHasIt() {
    get(R1, "k", Visibility.REMOTE, false);
    store.commit(R1, List.of(), List.of(entry("other", "x")));
    assertThat(got).isEmpty();
    store.commit(R1, List.of(), List.of(entry("k", "v")));
    assertThat(got)
        .containsExactly(
            new ModexStore.Fetched(
                PmixStatus.SUCCESS, List.of(kval("other", "x"), kval("k", "v"))));
    timer.advance(5000);
    assertThat(got).hasSize(1);
  }

  @Test
  void aMissingKeyTimesOutAfterItsLimitAndImmediateIsNotFoundAtOnce() {
    get(R1, "k", Visibility.REMOTE, true);
    assertThat(got)
        .extracting(ModexStore.Fetched::status)
        .containsExactly(PmixStatus.ERR_NOT_FOUND);
    get(R1, "k", Visibility.REMOTE, false);
    timer.advance(1999);
    assertThat(got).hasSize(1);
    timer.advance(1);
    assertThat(got)
        .extracting(ModexStore.Fetched::status)
        .containsExactly(PmixStatus.ERR_NOT_FOUND, PmixStatus.ERR_TIMEOUT);
    store.commit(R1, List.of(), List.of(entry("k", "v")));
    assertThat(got).hasSize(2);
    assertThat(store.waiting()).isZero();
  }

  @Test
  void aCommitPastTheRanksBoundIsRefusedAndChangesNothing() {
    List<ModexStore.Entry> many = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      many.add(entry("k" + i, "v"));
    }
    assertThat(store.commit(R0, many, many)).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(store.namespaces()).isZero();
    assertThat(store.commit(R0, many.subList(0, 5), many.subList(0, 5)))
        .isEqualTo(PmixStatus.SUCCESS);
    assertThat(store.bytesOf(R0)).isEqualTo(100);
    // replacing a key with one of the same size still fits; a new key does not
    assertThat(store.commit(R0, List.of(entry("k0", "w")), List.of()))
        .isEqualTo(PmixStatus.SUCCESS);
    assertThat(store.commit(R0, List.of(entry("k9", "w")), List.of()))
        .isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    get(R0, "k9", Visibility.OWN, true);
    assertThat(got.get(0).status()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
  }

  @Test
  void forgettingAJobDropsItsDataAndAnswersItsWaitingGets() {
    store.commit(R0, List.of(entry("a", "1")), List.of());
    get(R1, "k", Visibility.LOCAL, false);
    store.forget("dvm@2");
    assertThat(got)
        .extracting(ModexStore.Fetched::status)
        .containsExactly(PmixStatus.ERR_NOT_FOUND);
    assertThat(store.namespaces()).isZero();
    timer.advance(5000);
    assertThat(got).hasSize(1);
  }

  @Test
  void aGetWithoutAKeyIsEverythingVisibleNow() {
    get(R0, null, Visibility.LOCAL, false);
    assertThat(got).containsExactly(new ModexStore.Fetched(PmixStatus.SUCCESS, List.of()));
  }
}
