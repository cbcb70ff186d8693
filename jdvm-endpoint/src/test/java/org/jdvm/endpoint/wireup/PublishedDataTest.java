package org.jdvm.endpoint.wireup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jdvm.endpoint.wireup.PublishedData.Lookup;
import org.jdvm.endpoint.wireup.PublishedData.LookupRefusal;
import org.jdvm.endpoint.wireup.PublishedData.PublishRefusal;
import org.jdvm.endpoint.wireup.PublishedData.UnpublishRefusal;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Persistence;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The published-data registry (docs/wireup.md §c.4): persistence, the range rule both ways,
 * duplicate keys, waiting lookups and their timeouts, and every bound and refusal, each of which
 * changes nothing.
 */
class PublishedDataTest {
  /** Session 7: job a@1 (ranks 0, 1 on n0; rank 2 on n1), job b@2 (rank 0 on n0). */
  private static final Member A0 = new Member(new Proc("a@1", 0), "n0", 7);

  private static final Member A1 = new Member(new Proc("a@1", 1), "n0", 7);
  private static final Member A2 = new Member(new Proc("a@1", 2), "n1", 7);
  private static final Member B0 = new Member(new Proc("b@2", 0), "n0", 7);

  /** Session 8, on node n0 too. */
  private static final Member C0 = new Member(new Proc("c@3", 0), "n0", 8);

  private final PublishedData data = new PublishedData(PublishedData.Limits.DEFAULT);

  private static PublishedData.Datum datum(String key, String value) {
    return new PublishedData.Datum(key, Value.string(value), value.length() + 2);
  }

  private Optional<PublishRefusal> publish(Member m, DataRange r, Persistence p, String... kv) {
    List<PublishedData.Datum> d = new ArrayList<>();
    for (int k = 0; k < kv.length; k += 2) {
      d.add(datum(kv[k], kv[k + 1]));
    }
    return data.publish(m, d, r, p);
  }

  /** The recorded answers of parked lookups. */
  private record Answer(int status, List<PData> found) {}

  private final List<Answer> answers = new ArrayList<>();

  private Lookup lookup(Member m, DataRange range, int waitFor, String... keys) {
    return data.lookup(
        m, List.of(keys), range, waitFor, m, (s, f) -> answers.add(new Answer(s, f)));
  }

  private Lookup lookup(Member m, String... keys) {
    return lookup(m, DataRange.UNDEF, 0, keys);
  }

  private static String value(Lookup l) {
    assertThat(l).isInstanceOf(Lookup.Found.class);
    return ((Lookup.Found) l).data().get(0).value().asString();
  }

  // ---- persistence -----------------------------------------------------------------------------

  /** What takes an entry away, by its persistence (docs/wireup.md §c.4, the PMIx Standard). */
  @ParameterizedTest(name = "{0}: read={1} publisher ends={2} job ends={3} session ends={4}")
  @CsvSource({
    "INDEF,      stays, stays, stays, stays",
    "FIRST_READ, gone,  stays, stays, gone",
    "PROC,       stays, gone,  gone,  gone",
    "APP,        stays, stays, gone,  gone",
    "SESSION,    stays, stays, stays, gone",
  })
  void eachPersistenceEndsAsItsNameSays(
      Persistence p, String read, String procEnds, String jobEnds, String sessionEnds) {
    assertThat(publish(A0, DataRange.SESSION, p, "k", "v")).isEmpty();
    lookup(B0, "k");
    assertThat(state("k")).as("after a read").isEqualTo(read);

    fresh(p);
    data.procsEnded("a@1", List.of(0));
    assertThat(state("k")).as("after its publisher ended").isEqualTo(procEnds);

    fresh(p);
    data.jobEnded("a@1");
    assertThat(state("k")).as("after its job ended").isEqualTo(jobEnds);

    fresh(p);
    data.sessionEnded(7);
    assertThat(state("k")).as("after its session ended").isEqualTo(sessionEnds);
  }

  private void fresh(Persistence p) {
    data.unpublish(A0.proc(), List.of(), null);
    assertThat(data.entries()).isZero();
    assertThat(publish(A0, DataRange.SESSION, p, "k", "v")).isEmpty();
  }

  private String state(String key) {
    return data.entries() == 1 ? "stays" : "gone";
  }

  @Test
  void theEndOfAnotherProcessJobOrSessionLeavesAnEntryAlone() {
    publish(A0, DataRange.SESSION, Persistence.PROC, "k", "v");
    data.procsEnded("a@1", List.of(1, 2));
    data.procsEnded("b@2", List.of(0));
    data.jobEnded("b@2");
    data.sessionEnded(8);
    assertThat(value(lookup(B0, "k"))).isEqualTo("v");
  }

  // ---- ranges
  // ------------------------------------------------------------------------------------

  /**
   * Who sees an entry published on a range, with the lookup's default range (SESSION): A0 published
   * it; A1 shares its job and node, A2 its job, B0 its session and node, C0 only its node.
   */
  @ParameterizedTest(name = "{0}: A0 {1}, A1 {2}, A2 {3}, B0 {4}, C0 {5}")
  @CsvSource({
    "UNDEF,      yes, yes, yes, yes, no",
    "SESSION,    yes, yes, yes, yes, no",
    "NAMESPACE,  yes, yes, yes, no,  no",
    "LOCAL,      yes, yes, no,  yes, no",
    "PROC_LOCAL, yes, no,  no,  no,  no",
    "GLOBAL,     yes, yes, yes, yes, no",
  })
  void aPublishersRangeDecidesWhoSeesTheEntry(
      DataRange range, String a0, String a1, String a2, String b0, String c0) {
    assertThat(publish(A0, range, Persistence.INDEF, "k", "v")).isEmpty();
    List<String> seen = new ArrayList<>();
    for (Member m : List.of(A0, A1, A2, B0, C0)) {
      seen.add(lookup(m, "k") instanceof Lookup.Found ? "yes" : "no");
    }
    assertThat(seen).containsExactly(a0, a1, a2, b0, c0);
  }

  /** GLOBAL entries outside the session need a lookup that searches GLOBAL too. */
  @ParameterizedTest(name = "lookup range {0}: A1 {1}, B0 {2}, C0 {3}")
  @CsvSource({
    "SESSION,    yes, yes, no",
    "NAMESPACE,  yes, no,  no",
    "LOCAL,      yes, yes, yes",
    "PROC_LOCAL, no,  no,  no",
    "GLOBAL,     yes, yes, yes",
  })
  void aLookupsRangeDecidesWhosePublicationsItSearches(
      DataRange search, String a1, String b0, String c0) {
    assertThat(publish(A0, DataRange.GLOBAL, Persistence.INDEF, "k", "v")).isEmpty();
    List<String> seen = new ArrayList<>();
    for (Member m : List.of(A1, B0, C0)) {
      seen.add(lookup(m, search, 0, "k") instanceof Lookup.Found ? "yes" : "no");
    }
    assertThat(seen).containsExactly(a1, b0, c0);
  }

  @Test
  void rangesJdvmDoesNotServeAreRefusedAndChangeNothing() {
    for (DataRange r : List.of(DataRange.RM, DataRange.CUSTOM, DataRange.INVALID)) {
      assertThat(publish(A0, r, Persistence.INDEF, "k", "v"))
          .contains(PublishRefusal.RANGE_NOT_SUPPORTED);
      assertThat(lookup(A0, r, 0, "k"))
          .isEqualTo(new Lookup.Refused(LookupRefusal.RANGE_NOT_SUPPORTED));
      assertThat(data.unpublish(A0.proc(), List.of("k"), r))
          .contains(UnpublishRefusal.RANGE_NOT_SUPPORTED);
    }
    assertThat(data.entries()).isZero();
  }

  // ---- duplicates
  // --------------------------------------------------------------------------------

  @Test
  void aKeyIsPublishedOncePerRangeAndTheRefusalStoresNothing() {
    assertThat(publish(A0, DataRange.SESSION, Persistence.INDEF, "k", "first")).isEmpty();
    assertThat(publish(B0, DataRange.UNDEF, Persistence.INDEF, "k", "x", "other", "y"))
        .as("SESSION again, in the same session, with another key beside it")
        .contains(PublishRefusal.DUPLICATE_KEY);
    assertThat(data.entries()).isEqualTo(1);
    assertThat(publish(C0, DataRange.SESSION, Persistence.INDEF, "k", "own")).isEmpty();
    assertThat(publish(A1, DataRange.NAMESPACE, Persistence.INDEF, "k", "ns-a")).isEmpty();
    assertThat(publish(B0, DataRange.NAMESPACE, Persistence.INDEF, "k", "ns-b")).isEmpty();
    assertThat(publish(A2, DataRange.NAMESPACE, Persistence.INDEF, "k", "again"))
        .contains(PublishRefusal.DUPLICATE_KEY);
    assertThat(value(lookup(C0, "k"))).isEqualTo("own");
    assertThat(value(lookup(A2, "k")))
        .as("the first published both ranges admit")
        .isEqualTo("first");
    assertThat(value(lookup(B0, DataRange.NAMESPACE, 0, "k"))).isEqualTo("ns-b");
  }

  @Test
  void theSameKeyTwiceInOnePublishIsRefused() {
    assertThat(publish(A0, DataRange.SESSION, Persistence.INDEF, "k", "1", "k", "2"))
        .contains(PublishRefusal.KEY_TWICE_IN_REQUEST);
    assertThat(data.entries()).isZero();
  }

  // ---- lookup
  // --------------------------------------------------------------------------------------

  @Test
  void withoutWaitingEveryKeyMustBeThereAndNothingIsReadOtherwise() {
    publish(A0, DataRange.SESSION, Persistence.FIRST_READ, "a", "1");
    assertThat(lookup(B0, "a", "b")).isInstanceOf(Lookup.NotFound.class);
    assertThat(data.entries()).as("a NOT_FOUND reads nothing").isEqualTo(1);
    publish(A0, DataRange.SESSION, Persistence.FIRST_READ, "b", "2");
    Lookup both = lookup(B0, "a", "b", "a");
    assertThat(((Lookup.Found) both).data())
        .extracting(PData::key)
        .as("each key once, in the order asked")
        .containsExactly("a", "b");
    assertThat(data.entries()).isZero();
  }

  @Test
  void aWaitingLookupIsAnsweredByThePublishThatCompletesIt() {
    publish(A0, DataRange.SESSION, Persistence.INDEF, "a", "1");
    Lookup l = lookup(B0, DataRange.UNDEF, 2, "a", "b");
    assertThat(l).isInstanceOf(Lookup.Parked.class);
    assertThat(data.waiting()).isEqualTo(1);
    publish(A1, DataRange.SESSION, Persistence.INDEF, "c", "3");
    assertThat(answers).isEmpty();
    publish(A1, DataRange.SESSION, Persistence.INDEF, "b", "2");
    assertThat(answers).hasSize(1);
    assertThat(answers.get(0).status()).isEqualTo(PmixStatus.SUCCESS);
    assertThat(answers.get(0).found())
        .extracting(d -> d.proc() + "/" + d.key())
        .containsExactly("a@1.0/a", "a@1.1/b");
    assertThat(data.waiting()).isZero();
    assertThat(data.expire(((Lookup.Parked) l).id())).as("answered: nothing to expire").isFalse();
    assertThat(answers).hasSize(1);
  }

  @Test
  void waitingForSomeOfTheKeysIsAnsweredWithWhatIsThere() {
    Lookup l = lookup(B0, DataRange.UNDEF, 1, "a", "b");
    assertThat(l).isInstanceOf(Lookup.Parked.class);
    publish(A0, DataRange.SESSION, Persistence.INDEF, "b", "2");
    assertThat(answers).singleElement().satisfies(a -> assertThat(a.found()).hasSize(1));
  }

  @Test
  void aFirstReadEntryGoesToTheFirstWaiterOnlyAndTheNextWaitsOn() {
    lookup(B0, DataRange.UNDEF, 1, "port");
    lookup(A2, DataRange.UNDEF, 1, "port");
    publish(A0, DataRange.SESSION, Persistence.FIRST_READ, "port", "p");
    assertThat(answers).hasSize(1);
    assertThat(data.waiting()).isEqualTo(1);
    assertThat(data.entries()).isZero();
  }

  @Test
  void aWaitEndsWithTimeoutOnceWhenItsTimerSaysSo() {
    Lookup.Parked p = (Lookup.Parked) lookup(B0, DataRange.UNDEF, 1, "never");
    assertThat(data.expire(p.id())).isTrue();
    assertThat(data.expire(p.id())).isFalse();
    assertThat(answers).containsExactly(new Answer(PmixStatus.ERR_TIMEOUT, List.of()));
    publish(A0, DataRange.SESSION, Persistence.INDEF, "never", "late");
    assertThat(answers).hasSize(1);
  }

  @Test
  void aWaitWhoseConnectionOrProcessIsGoneIsDroppedUnanswered() {
    lookup(B0, DataRange.UNDEF, 1, "x");
    lookup(A1, DataRange.UNDEF, 1, "x");
    lookup(A2, DataRange.UNDEF, 1, "x");
    data.ownerGone(B0);
    data.procsEnded("a@1", List.of(1));
    data.jobEnded("a@1");
    assertThat(data.waiting()).isZero();
    publish(C0, DataRange.GLOBAL, Persistence.INDEF, "x", "1");
    assertThat(answers).isEmpty();
  }

  @Test
  void aLookupOfNoKeysIsRefused() {
    assertThat(lookup(A0)).isEqualTo(new Lookup.Refused(LookupRefusal.NO_KEYS));
  }

  // ---- unpublish
  // -----------------------------------------------------------------------------------

  @Test
  void unpublishRemovesOnlyTheCallersOwnEntries() {
    publish(A0, DataRange.SESSION, Persistence.INDEF, "a", "1", "b", "2");
    publish(A1, DataRange.NAMESPACE, Persistence.INDEF, "a", "3");
    assertThat(data.unpublish(B0.proc(), List.of("a"), null)).contains(UnpublishRefusal.NOT_FOUND);
    assertThat(data.entries()).isEqualTo(3);
    assertThat(data.unpublish(A0.proc(), List.of("a"), DataRange.NAMESPACE))
        .as("not in that range")
        .contains(UnpublishRefusal.NOT_FOUND);
    assertThat(data.unpublish(A0.proc(), List.of("a", "zz"), null)).isEmpty();
    assertThat(value(lookup(A2, "a"))).isEqualTo("3");
    assertThat(data.unpublish(A0.proc(), List.of(), null)).as("all of its own").isEmpty();
    assertThat(data.entries()).isEqualTo(1);
  }

  // ---- bounds
  // --------------------------------------------------------------------------------------

  @Test
  void everyBoundRefusesAndChangesNothing() {
    PublishedData small = new PublishedData(totalsOnly(2, 8, 3, 1024, 2, 1, 64));
    Member[] pubs = {A0, A1};
    assertThat(
            small.publish(
                A0, List.of(datum("big", "123456789")), DataRange.SESSION, Persistence.INDEF))
        .contains(PublishRefusal.VALUE_TOO_LARGE);
    assertThat(
            small.publish(
                A0,
                List.of(datum("a", "1"), datum("b", "2"), datum("c", "3")),
                DataRange.SESSION,
                Persistence.INDEF))
        .contains(PublishRefusal.PUBLISHER_FULL);
    assertThat(small.entries()).isZero();
    assertThat(
            small.publish(
                pubs[0],
                List.of(datum("a", "1"), datum("b", "2")),
                DataRange.SESSION,
                Persistence.INDEF))
        .isEmpty();
    assertThat(
            small.publish(
                pubs[1],
                List.of(datum("c", "1"), datum("d", "2")),
                DataRange.SESSION,
                Persistence.INDEF))
        .contains(PublishRefusal.STORE_FULL);
    assertThat(small.entries()).isEqualTo(2);
    assertThat(small.publish(A0, List.of(), DataRange.SESSION, Persistence.INDEF))
        .contains(PublishRefusal.NO_DATA);

    PublishedData.Reply ignore = (s, f) -> {};
    assertThat(small.lookup(B0, List.of("x"), DataRange.UNDEF, 1, B0, ignore))
        .isInstanceOf(Lookup.Parked.class);
    assertThat(small.lookup(B0, List.of("y"), DataRange.UNDEF, 1, B0, ignore))
        .as("one waiting lookup per requester")
        .isEqualTo(new Lookup.Refused(LookupRefusal.TOO_MANY_WAITING));
    assertThat(small.lookup(A2, List.of("y"), DataRange.UNDEF, 1, A2, ignore))
        .isInstanceOf(Lookup.Parked.class);
    assertThat(small.lookup(C0, List.of("y"), DataRange.UNDEF, 1, C0, ignore))
        .as("two waiting lookups in all")
        .isEqualTo(new Lookup.Refused(LookupRefusal.TOO_MANY_WAITING));
    assertThat(small.waiting()).isEqualTo(2);

    PublishedData few = new PublishedData(totalsOnly(8, 64, 8, 20, 8, 8, 3));
    assertThat(
            few.publish(
                A0, List.of(datum("key", "12345678901234")), DataRange.SESSION, Persistence.INDEF))
        .as("3 + 16 bytes fit in 20")
        .isEmpty();
    assertThat(few.publish(A0, List.of(datum("k", "1")), DataRange.SESSION, Persistence.INDEF))
        .as("the store's bytes")
        .contains(PublishRefusal.STORE_FULL);
    assertThat(few.bytes()).isEqualTo(19);
    assertThat(few.lookup(B0, List.of("x", "y"), DataRange.UNDEF, 1, B0, ignore))
        .isInstanceOf(Lookup.Parked.class);
    assertThat(few.lookup(A1, List.of("z", "w"), DataRange.UNDEF, 1, A1, ignore))
        .as("four keys waited for, of three")
        .isEqualTo(new Lookup.Refused(LookupRefusal.TOO_MANY_WAITING));
    few.ownerGone(B0);
    assertThat(few.lookup(A1, List.of("z", "w"), DataRange.UNDEF, 1, A1, ignore))
        .isInstanceOf(Lookup.Parked.class);
  }

  /** Limits whose shares per job are the totals: the other bounds alone. */
  private static PublishedData.Limits totalsOnly(
      int perPublisher,
      int value,
      int entries,
      long bytes,
      int waiting,
      int perRequester,
      int keys) {
    return new PublishedData.Limits(
        perPublisher,
        value,
        entries,
        bytes,
        waiting,
        perRequester,
        keys,
        new PublishShares(entries, bytes, entries, bytes, entries, bytes, waiting, keys));
  }

  private static Member rankOf(String nspace, int rank) {
    return new Member(new Proc(nspace, rank), "n0", 7);
  }

  /** {@code n} data named {@code prefix0 ... prefix(n-1)}. */
  private static List<PublishedData.Datum> data(String prefix, int n) {
    List<PublishedData.Datum> d = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      d.add(datum(prefix + i, "v"));
    }
    return d;
  }

  /**
   * The issue's flood, at the default bounds: 64 ranks of one job publish 1,024 entries each. The
   * job gets its share (256 entries that outlive it, 4,096 in all) and is refused OUT_OF_RESOURCE
   * past it, changing nothing; another job still publishes, of both kinds; when the first job ends,
   * its APP entries go and only its lasting share stays.
   */
  @Test
  void oneJobGetsItsShareOfTheTableAndAnotherStillPublishes() {
    int refusedIndef = 0;
    int refusedApp = 0;
    Set<PublishRefusal> refusals = EnumSet.noneOf(PublishRefusal.class);
    for (int rank = 0; rank < 64; rank++) {
      Member m = rankOf("flood@1", rank);
      for (int batch = 0; batch < 16; batch++) {
        Persistence p = batch % 2 == 0 ? Persistence.INDEF : Persistence.APP;
        Optional<PublishRefusal> r =
            data.publish(
                m, data("r" + rank + "-" + p + "-" + batch + "-", 64), DataRange.SESSION, p);
        if (r.isPresent()) {
          assertThat(r.get().status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
          assertThat(r.get()).isIn(PublishRefusal.JOB_FULL, PublishRefusal.JOB_LASTING_FULL);
          refusals.add(r.get());
          if (p == Persistence.INDEF) {
            refusedIndef++;
          } else {
            refusedApp++;
          }
        }
      }
    }
    assertThat(refusedIndef).isPositive();
    assertThat(refusedApp).isPositive();
    assertThat(refusals)
        .containsExactlyInAnyOrder(PublishRefusal.JOB_FULL, PublishRefusal.JOB_LASTING_FULL);
    assertThat(data.entriesOf("flood@1")).isEqualTo(4096);
    assertThat(data.lastingEntries()).isEqualTo(256);
    assertThat(data.publish(B0, data("b-indef-", 200), DataRange.SESSION, Persistence.INDEF))
        .isEmpty();
    assertThat(data.publish(B0, data("b-app-", 800), DataRange.SESSION, Persistence.APP)).isEmpty();
    assertThat(value(lookup(A0, "b-app-799"))).isEqualTo("v");

    data.jobEnded("flood@1");
    assertThat(data.entriesOf("flood@1")).as("only what outlives the job").isEqualTo(256);
    assertThat(lookup(B0, "r0-APP-1-0"))
        .as("an APP entry of the ended job")
        .isInstanceOf(Lookup.NotFound.class);
    assertThat(value(lookup(B0, "r0-INDEF-0-0"))).isEqualTo("v");
    assertThat(data.entries()).isEqualTo(256 + 1000);
  }

  /**
   * What ended jobs leave behind is bounded in total, below the table: past it a lasting publish is
   * refused, while entries that go with their job still fit.
   */
  @Test
  void whatEndedJobsLeaveBehindCannotFillTheTable() {
    PublishedData small =
        new PublishedData(
            new PublishedData.Limits(
                64, 64, 64, 4096, 8, 8, 64, new PublishShares(16, 1024, 4, 256, 8, 1024, 8, 64)));
    for (int job = 0; job < 2; job++) {
      assertThat(
              small.publish(
                  rankOf("j@" + job, 0),
                  data("k" + job + "-", 4),
                  DataRange.NAMESPACE,
                  Persistence.INDEF))
          .isEmpty();
      small.jobEnded("j@" + job);
    }
    assertThat(small.lastingEntries()).isEqualTo(8);
    Member next = rankOf("j@9", 0);
    assertThat(small.publish(next, data("s", 1), DataRange.NAMESPACE, Persistence.SESSION))
        .contains(PublishRefusal.LASTING_FULL);
    assertThat(small.publish(next, data("f", 1), DataRange.NAMESPACE, Persistence.FIRST_READ))
        .contains(PublishRefusal.LASTING_FULL);
    assertThat(small.entries()).isEqualTo(8);
    assertThat(small.publish(next, data("a", 16), DataRange.NAMESPACE, Persistence.APP)).isEmpty();
    assertThat(small.publish(next, data("p", 1), DataRange.NAMESPACE, Persistence.PROC))
        .as("16 entries per job")
        .contains(PublishRefusal.JOB_FULL);
    assertThat(small.explain(PublishRefusal.LASTING_FULL)).contains("8 entries", "1024 bytes");
  }

  /** One job's processes may park at most their share of the waiting lookups. */
  @Test
  void oneJobsWaitingLookupsAreBoundedBelowTheTotal() {
    PublishedData small =
        new PublishedData(
            new PublishedData.Limits(
                8, 64, 64, 4096, 8, 8, 64, new PublishShares(64, 4096, 64, 4096, 64, 4096, 2, 64)));
    PublishedData.Reply ignore = (st, f) -> {};
    assertThat(small.lookup(A0, List.of("x"), DataRange.UNDEF, 1, A0, ignore))
        .isInstanceOf(Lookup.Parked.class);
    assertThat(small.lookup(A1, List.of("x"), DataRange.UNDEF, 1, A1, ignore))
        .isInstanceOf(Lookup.Parked.class);
    assertThat(small.lookup(A2, List.of("x"), DataRange.UNDEF, 1, A2, ignore))
        .isEqualTo(new Lookup.Refused(LookupRefusal.TOO_MANY_WAITING));
    assertThat(small.lookup(B0, List.of("x"), DataRange.UNDEF, 1, B0, ignore))
        .isInstanceOf(Lookup.Parked.class);
    small.jobEnded("a@1");
    assertThat(small.lookup(A2, List.of("x"), DataRange.UNDEF, 1, A2, ignore))
        .isInstanceOf(Lookup.Parked.class);
  }

  /** A refusal is logged once per episode of the job's refusals, not once per attempt. */
  @Test
  void aJobsRefusalsBeginAnEpisodeOnceUntilItPublishesAgain() {
    assertThat(data.refusalBeginsEpisode("a@1")).isTrue();
    assertThat(data.refusalBeginsEpisode("a@1")).isFalse();
    assertThat(data.refusalBeginsEpisode("b@2")).isTrue();
    publish(A0, DataRange.SESSION, Persistence.APP, "k", "v");
    assertThat(data.refusalBeginsEpisode("a@1")).isTrue();
    data.jobEnded("b@2");
    assertThat(data.refusalBeginsEpisode("b@2")).isTrue();
  }

  @Test
  void aRefusalsStatusIsThePmixOneItNames() {
    assertThat(PublishRefusal.DUPLICATE_KEY.status()).isEqualTo(PmixStatus.ERR_DUPLICATE_KEY);
    assertThat(PublishRefusal.STORE_FULL.status()).isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    assertThat(PublishRefusal.NO_DATA.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
    assertThat(LookupRefusal.RANGE_NOT_SUPPORTED.status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    assertThat(UnpublishRefusal.NOT_FOUND.status()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
  }
}
