package org.jdvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The frame of {@code jdvm top} from data alone (docs/cli.md "jdvm top"). */
class TopFrameTest {
  private static Map<String, Object> node(String name, int slots, int used, String alloc) {
    Map<String, Object> n = new HashMap<>();
    n.put("name", name);
    n.put("slots", slots);
    n.put("slotsInUse", used);
    n.put("allocId", alloc);
    n.put("reserved", false);
    n.put("agent", "local");
    return n;
  }

  private static Map<String, Object> job(String ns, String kind, String state, int procs) {
    Map<String, Object> j = new HashMap<>();
    j.put("nspace", ns);
    j.put("kind", kind);
    j.put("state", state);
    j.put("procCount", procs);
    j.put("procStates", Map.of("running", procs));
    j.put("procs", List.of());
    j.put("usage", null);
    return j;
  }

  private static final List<Map<String, Object>> NODES =
      List.of(
          node("node0", 2, 1, null),
          node("node1", 2, 0, null),
          node("node2", 2, 2, "s1"),
          node("node3", 2, 1, "s1"));

  @Test
  void nodesAreGroupedByAllocationWithTheirSlotsInUse() {
    List<String> lines = new TopFrame(NODES, List.of(), List.of()).lines(100, 30);
    assertThat(lines)
        .startsWith("jdvm top: 4 nodes, 4/8 slots in use, 0 jobs not ended (q quits)", "", "NODES")
        .contains("default: node0 1/2 node1 0/2", "s1: node2 2/2 node3 1/2");
  }

  @Test
  void aReservedAllocationAndALostNodeSayWhatTheyAre() {
    Map<String, Object> reserved = node("node2", 2, 2, "s1");
    reserved.put("reserved", true);
    Map<String, Object> down = node("node3", 0, 0, null);
    down.put("agent", "down");
    List<String> lines = new TopFrame(List.of(reserved, down), List.of(), List.of()).lines(80, 30);
    assertThat(lines).contains("default: node3 down", "s1 (reserved): node2 2/2");
  }

  @Test
  void onlyApplicationJobsThatHaveNotEndedAreListed() {
    List<Map<String, Object>> jobs =
        List.of(
            job("jdvm-1@1", "tool", "running", 0),
            job("jdvm-1@2", "application", "running", 12),
            job("jdvm-1@3", "application", "terminated", 1));
    List<String> lines = new TopFrame(NODES, jobs, List.of()).lines(100, 30);
    assertThat(lines).contains("JOBS (1 not ended)");
    assertThat(String.join("\n", lines))
        .contains("NAMESPACE  STATE    PROCS           USAGE")
        .contains("jdvm-1@2   running  12: 12 running  -")
        .doesNotContain("jdvm-1@1")
        .doesNotContain("jdvm-1@3");
  }

  @Test
  void everyLineIsCutToTheWidthAndMarked() {
    List<String> events = List.of("x".repeat(200));
    List<String> lines = new TopFrame(NODES, List.of(), events).lines(30, 30);
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(30));
    assertThat(lines.getLast()).isEqualTo("x".repeat(29) + ">");
  }

  @Test
  void nodesWrapUnderTheirAllocationOnANarrowScreen() {
    List<String> lines = new TopFrame(NODES, List.of(), List.of()).lines(24, 30);
    assertThat(lines).contains("default: node0 1/2", "         node1 0/2");
  }

  @Test
  void theFrameFitsTheHeightKeepingTheLatestEventsAndSayingWhatItLeavesOut() {
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      nodes.add(node("n" + i, 1, 0, "a" + i));
    }
    List<Map<String, Object>> jobs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      jobs.add(job("j@" + i, "application", "running", 1));
    }
    List<String> events = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      events.add("event " + i);
    }
    List<String> lines = new TopFrame(nodes, jobs, events).lines(80, 20);
    assertThat(lines).hasSize(20);
    // 12 lines for the three sections: 4 each.
    assertThat(lines).contains("a0: n0 0/1", "... 27 more node groups", "... 27 more jobs");
    assertThat(lines).doesNotContain("a3: n3 0/1");
    assertThat(lines.subList(16, 20))
        .containsExactly("event 26", "event 27", "event 28", "event 29");
  }

  @Test
  void whatOneSectionDoesNotNeedGoesToTheOthers() {
    assertThat(TopFrame.share(12, 1, 0, 30)).containsExactly(1, 0, 11);
    assertThat(TopFrame.share(12, 30, 30, 30)).containsExactly(4, 4, 4);
    assertThat(TopFrame.share(-3, 5, 5, 5)).containsExactly(0, 0, 0);
  }

  @Test
  void aScreenTooSmallForTheTitlesGetsItsFirstLinesOnly() {
    assertThat(new TopFrame(NODES, List.of(), List.of("e")).lines(10, 3))
        .containsExactly("jdvm top:>", "", "NODES");
  }
}
