package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jdvm.core.query.JobView;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events and departures through the real protocol: the timeout warning reaches only the requester
 * (spec §8.2.1.9.5), a tool's departure fires its dispositions (decisions.md #11, spec §8.2.1.9.2),
 * events a peer notifies go only where their range says, and the operator feed.
 */
class EventProtocolTest {
  private static final int MARKER = -3100;

  @TempDir Path home;
  private TestDvm t;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 3);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  /** Records the events a handler gets. */
  static final class Events implements Consumer<Event> {
    final List<Event> seen = new CopyOnWriteArrayList<>();

    @Override
    public void accept(Event e) {
      seen.add(e);
    }

    Event await(int status) {
      TestDvm.await(
          () -> seen.stream().anyMatch(e -> e.status() == status),
          "event " + PmixStatus.name(status));
      return seen.stream().filter(e -> e.status() == status).findFirst().orElseThrow();
    }

    List<Integer> statuses() {
      return seen.stream().map(Event::status).toList();
    }
  }

  /**
   * Sends {@code to} a marker event from {@code from} and waits for it: everything addressed to
   * {@code to} before it has then been delivered, since one connection keeps its order.
   */
  private static void flush(JdvmClient from, JdvmClient to, Events seen) throws PmixException {
    Info range =
        Info.of(
            PmixKeys.EVENT_CUSTOM_RANGE,
            Value.array(DataArray.of(DataType.PROC, List.of(to.self()))));
    from.notifyEvent(MARKER, DataRange.CUSTOM, List.of(range));
    seen.await(MARKER);
  }

  // ---- the timeout warning (spec §8.2.1.9.5) --------------------------------------------------

  @Test
  void theTimeoutWarningReachesOnlyTheRequester() throws Exception {
    JdvmClient requester = t.tool();
    JdvmClient bystander = t.tool();
    JdvmClient marker = t.tool();
    Events mine = new Events();
    Events theirs = new Events();
    requester.onEvents(mine, PmixStatus.ALLOC_TIMEOUT_WARNING);
    bystander.onEvents(theirs);
    bystander.onEvents(theirs, PmixStatus.ALLOC_TIMEOUT_WARNING);
    AllocationResult a =
        requester.allocate(
            AllocationRequest.newAllocation().nodes(1).reqId("w").time("3").warnTimeout(2).build());
    Event w = mine.await(PmixStatus.ALLOC_TIMEOUT_WARNING);
    assertThat(w.info(PmixKeys.ALLOC_ID)).isEqualTo(a.allocId());
    assertThat(w.info(PmixKeys.ALLOC_REQ_ID)).isEqualTo("w");
    assertThat(w.info(PmixKeys.TIME_REMAINING)).isEqualTo("2");
    assertThat(w.source()).isEqualTo(t.endpoint.serverProc());
    flush(marker, bystander, theirs);
    assertThat(theirs.statuses()).containsExactly(MARKER);
  }

  @Test
  void theSchedulersWarningIsRelayedToTheRequesterAlone() throws Exception {
    JdvmClient scheduler = t.scheduler();
    JdvmClient requester = t.tool();
    JdvmClient bystander = t.tool();
    Events mine = new Events();
    Events theirs = new Events();
    requester.onEvents(mine, PmixStatus.ALLOC_TIMEOUT_WARNING);
    bystander.onEvents(theirs);
    AllocationResult a = requester.allocate(AllocationRequest.newAllocation().nodes(1).build());
    scheduler.notifyEvent(
        PmixStatus.ALLOC_TIMEOUT_WARNING,
        DataRange.GLOBAL,
        List.of(
            Info.of(PmixKeys.ALLOC_ID, Value.string(a.allocId())),
            Info.of(PmixKeys.TIME_REMAINING, Value.uint32(60))));
    Event w = mine.await(PmixStatus.ALLOC_TIMEOUT_WARNING);
    assertThat(w.info(PmixKeys.TIME_REMAINING)).isEqualTo("60");
    flush(scheduler, bystander, theirs);
    assertThat(theirs.statuses()).containsExactly(MARKER);
  }

  // ---- departures (decisions.md #11) ----------------------------------------------------------

  @Test
  void aToolFinalizingWithANoneReservationReturnsItsNodesToTheScheduler() throws Exception {
    JdvmClient tool = t.tool();
    AllocationResult a =
        tool.allocate(
            AllocationRequest.newAllocation().nodes(1).inheritance(AllocInheritance.NONE).build());
    assertThat(t.nodeNames()).containsAll(a.nodes());
    tool.close();
    TestDvm.await(() -> !t.nodeNames().contains(a.nodes().get(0)), "the nodes to go back");
    assertThat(t.allocationExists(a.allocId())).isFalse();
  }

  @Test
  void aToolLosingItsConnectionWithADefaultReservationLeavesTheNodesUnreserved() throws Exception {
    JdvmClient tool = t.tool();
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    assertThat(t.reservedNodes()).containsExactlyElementsOf(a.nodes());
    tool.dropConnection();
    TestDvm.await(() -> !t.allocationExists(a.allocId()), "the disposition to fire");
    assertThat(t.reservedNodes()).isEmpty();
    assertThat(t.nodeNames()).containsAll(a.nodes());
  }

  @Test
  void aChildReservationIsHeldByAGrandchildAfterItsOwnerAndParentEnded() throws Exception {
    TestDvm.Output out = new TestDvm.Output();
    JdvmClient owner = t.tool(out);
    JdvmClient scheduler = t.scheduler();
    AllocationResult r =
        owner.allocate(
            AllocationRequest.newAllocation().nodes(1).inheritance(AllocInheritance.CHILD).build());
    TestDvm.Process0 parent = t.runningJob(owner, out, r.allocId());
    Job grandchild =
        parent.client().spawn(SpawnRequest.of("sleep", "60").target(r.allocId()).build());
    owner.close();
    parent.client().terminate(parent.nspace());
    TestDvm.await(
        () -> t.jobState(parent.nspace()) == JobView.State.TERMINATED, "the parent to end");
    assertThat(t.allocationExists(r.allocId())).as("held by the grandchild").isTrue();
    assertThat(t.reservedNodes()).containsExactlyElementsOf(r.nodes());
    scheduler.terminate(grandchild.nspace());
    TestDvm.await(() -> !t.allocationExists(r.allocId()), "the last descendant's end to fire");
    TestDvm.await(() -> !t.nodeNames().contains(r.nodes().get(0)), "CHILD to return the nodes");
  }

  // ---- events between peers ------------------------------------------------------------------

  @Test
  void anEventWithACustomRangeReachesOnlyTheNamedRegisteredPeers() throws Exception {
    JdvmClient sender = t.tool();
    JdvmClient named = t.tool();
    JdvmClient other = t.tool();
    Events namedSeen = new Events();
    Events otherSeen = new Events();
    named.onEvents(namedSeen);
    other.onEvents(otherSeen);
    Info range =
        Info.of(
            PmixKeys.EVENT_CUSTOM_RANGE,
            Value.array(DataArray.of(DataType.PROC, List.of(named.self()))));
    sender.notifyEvent(-3200, DataRange.CUSTOM, List.of(range, Info.of("x", Value.string("y"))));
    Event e = namedSeen.await(-3200);
    assertThat(e.source()).isEqualTo(sender.self());
    assertThat(e.info("x")).isEqualTo("y");
    flush(sender, other, otherSeen);
    assertThat(otherSeen.statuses()).containsExactly(MARKER);
  }

  /**
   * {@code PMIX_EVENT_NON_DEFAULT}: an event so marked reaches a peer that registered its code,
   * never one through a default handler alone (docs/wireup.md "Dynamic processes").
   */
  @Test
  void aNonDefaultEventPassesADefaultHandlerBy() throws Exception {
    JdvmClient sender = t.tool();
    JdvmClient byDefault = t.tool();
    JdvmClient byCode = t.tool();
    Events defaultSeen = new Events();
    Events codeSeen = new Events();
    byDefault.onEvents(defaultSeen);
    byCode.onEvents(codeSeen, -3400);
    Info range =
        Info.of(
            PmixKeys.EVENT_CUSTOM_RANGE,
            Value.array(DataArray.of(DataType.PROC, List.of(byDefault.self(), byCode.self()))));
    Info nonDefault = Info.of(PmixKeys.EVENT_NON_DEFAULT, Value.bool(true));
    sender.notifyEvent(-3400, DataRange.CUSTOM, List.of(range, nonDefault));
    codeSeen.await(-3400);
    flush(sender, byDefault, defaultSeen);
    assertThat(defaultSeen.statuses()).containsExactly(MARKER);
    sender.notifyEvent(-3400, DataRange.CUSTOM, List.of(range));
    defaultSeen.await(-3400);
  }

  @Test
  void aDeregisteredCodeIsNoLongerDelivered() throws Exception {
    JdvmClient sender = t.tool();
    JdvmClient listener = t.tool();
    Events seen = new Events();
    Registration r = listener.onEvents(seen, -3300);
    Registration marker = listener.onEvents(seen, MARKER);
    Info range =
        Info.of(
            PmixKeys.EVENT_CUSTOM_RANGE,
            Value.array(DataArray.of(DataType.PROC, List.of(listener.self()))));
    sender.notifyEvent(-3300, DataRange.CUSTOM, List.of(range));
    seen.await(-3300);
    r.close();
    sender.notifyEvent(-3300, DataRange.CUSTOM, List.of(range));
    flush(sender, listener, seen);
    assertThat(seen.statuses()).containsExactly(-3300, MARKER);
    marker.close();
  }

  // ---- the operator feed (docs/protocol.md) --------------------------------------------------

  @Test
  void theOperatorFeedShowsEveryChangeAsALineAndAsJson() throws Exception {
    JdvmClient operator = t.tool();
    Events feed = new Events();
    operator.followChanges(feed);
    JdvmClient tool = t.tool();
    AllocationResult a = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    TestDvm.await(
        () -> feed.seen.stream().anyMatch(e -> changeStartsWith(e, "AllocationCreated")),
        "the allocation in the feed");
    Event created =
        feed.seen.stream()
            .filter(e -> changeStartsWith(e, "AllocationCreated"))
            .findFirst()
            .orElseThrow();
    assertThat(created.status()).isEqualTo(JdvmProtocol.EVENT_CHANGE);
    assertThat(created.info(JdvmProtocol.CHANGE)).contains("allocId=" + a.allocId());
    Map<?, ?> json = (Map<?, ?>) Json.parse(created.info(JdvmProtocol.CHANGE_JSON));
    assertThat(json.get("change")).isEqualTo("AllocationCreated");
    assertThat(json.get("allocId")).isEqualTo(a.allocId());
    assertThat(json.get("owner")).isEqualTo(tool.self().nspace());
  }

  private static boolean changeStartsWith(Event e, String change) {
    String line = e.info(JdvmProtocol.CHANGE);
    return line != null && line.startsWith(change);
  }

  @Test
  void aNewFeedSubscriberSeesTheRecentHistoryThenTheMarkerThenWhatHappensNext() throws Exception {
    JdvmClient tool = t.tool();
    AllocationResult before = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    JdvmClient operator = t.tool();
    Events feed = new Events();
    operator.followChanges(feed);
    AllocationResult after = tool.allocate(AllocationRequest.newAllocation().nodes(1).build());
    TestDvm.await(
        () ->
            feed.seen.stream()
                .anyMatch(e -> changeStartsWith(e, "AllocationCreated allocId=" + after.allocId())),
        "the later allocation in the feed");
    List<String> order = new java.util.ArrayList<>();
    for (Event e : feed.seen) {
      order.add(
          e.info(JdvmProtocol.FEED_REPLAYED) != null ? "MARKER" : e.info(JdvmProtocol.CHANGE));
    }
    int marker = order.indexOf("MARKER");
    assertThat(marker).as("one marker").isPositive().isEqualTo(order.lastIndexOf("MARKER"));
    assertThat(order.subList(0, marker))
        .anyMatch(l -> l.startsWith("AllocationCreated allocId=" + before.allocId()))
        .noneMatch(l -> l.startsWith("AllocationCreated allocId=" + after.allocId()));
    assertThat(order.subList(marker + 1, order.size()))
        .anyMatch(l -> l.startsWith("AllocationCreated allocId=" + after.allocId()))
        .noneMatch(l -> l.startsWith("AllocationCreated allocId=" + before.allocId()));
  }

  @Test
  void aFollowerLearnsThatTheDvmHasGone() throws Exception {
    // Not one of the fixture's clients, so the DVM goes first and the client learns of it.
    try (JdvmClient operator =
        JdvmClient.connector()
            .contact(t.contact())
            .role(Role.TOOL)
            .output(OutputHandler.DISCARD)
            .connect()) {
      operator.followChanges(new Events());
      assertThat(operator.disconnected()).isNotDone();
      t.close();
      operator.disconnected().get(20, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
