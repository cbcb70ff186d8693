package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.DataArray;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries through the real protocol (decisions.md #9, prrte-behavior.md §2 #1, docs/protocol.md
 * "Listings"): the standard keys, jdvm's JSON listings with their fields, and the rule that a reply
 * is SUCCESS with what could be answered, never PARTIAL_SUCCESS.
 */
class QueryProtocolTest {
  @TempDir Path home;
  private TestDvm t;
  private JdvmClient tool;
  private AllocationResult alloc;
  private Job job;

  @BeforeEach
  void start() throws Exception {
    t = TestDvm.start(home, 1, 2, 2);
    tool = t.tool();
    alloc =
        tool.allocate(
            AllocationRequest.newAllocation()
                .nodes(1)
                .reqId("q1")
                .inheritance(AllocInheritance.CHILD_DEFAULT)
                .build());
    job = tool.spawn(SpawnRequest.of("sleep", "60").target(alloc.allocId()).build());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private static Map<?, ?> object(List<?> array, String key, Object value) {
    for (Object o : array) {
      if (o instanceof Map<?, ?> m && value.equals(m.get(key))) {
        return m;
      }
    }
    throw new AssertionError("no " + key + "=" + value + " in " + array);
  }

  private static List<String> keys(Map<?, ?> m) {
    return m.keySet().stream().map(String::valueOf).toList();
  }

  private static List<String> strings(Object list) {
    return ((List<?>) list).stream().map(String::valueOf).toList();
  }

  @Test
  void theNodeListingHasItsFieldsInOrder() throws Exception {
    List<?> nodes = (List<?>) Json.parse(tool.nodesJson());
    Map<?, ?> node0 = object(nodes, "name", "node0");
    assertThat(keys(node0))
        .startsWith("name", "slots", "slotsInUse", "allocId", "reserved", "origin");
    assertThat(node0.get("allocId")).isNull();
    assertThat(node0.get("origin")).isEqualTo("startup");
    Map<?, ?> granted = object(nodes, "name", alloc.nodes().get(0));
    assertThat(granted.get("allocId")).isEqualTo(alloc.allocId());
    assertThat(granted.get("reserved")).isEqualTo(true);
    assertThat(granted.get("origin")).isEqualTo("scheduler");
    assertThat(granted.get("slotsInUse")).isEqualTo(1L);
  }

  @Test
  void theAllocationListingHasItsFields() throws Exception {
    List<?> allocs = (List<?>) Json.parse(tool.allocsJson());
    Map<?, ?> a = object(allocs, "allocId", alloc.allocId());
    assertThat(keys(a))
        .startsWith(
            "allocId",
            "reqId",
            "sessionId",
            "owner",
            "owners",
            "requester",
            "inheritance",
            "reserved",
            "nodes",
            "state");
    assertThat(a.get("reqId")).isEqualTo("q1");
    assertThat(a.get("owner")).isEqualTo(tool.self().nspace());
    assertThat(strings(a.get("owners"))).contains(tool.self().nspace(), job.nspace());
    assertThat(a.get("requester")).isEqualTo(tool.self().toString());
    assertThat(a.get("inheritance")).isEqualTo("CHILD_DEFAULT");
    assertThat(a.get("nodes")).isEqualTo(alloc.nodes());
    assertThat(a.get("state")).isEqualTo("active");
  }

  @Test
  void theJobListingHasItsFields() throws Exception {
    List<?> jobs = (List<?>) Json.parse(tool.jobsJson());
    Map<?, ?> j = object(jobs, "nspace", job.nspace());
    assertThat(keys(j))
        .startsWith("nspace", "kind", "state", "parent", "allocId", "targets", "procs");
    assertThat(j.get("kind")).isEqualTo("application");
    assertThat(j.get("state")).isEqualTo("running");
    assertThat(j.get("parent")).isEqualTo(tool.self().nspace());
    assertThat(j.get("allocId")).isEqualTo(alloc.allocId());
    assertThat(j.get("targets")).isEqualTo(List.of(alloc.allocId()));
    Map<?, ?> proc = (Map<?, ?>) ((List<?>) j.get("procs")).get(0);
    assertThat(keys(proc)).startsWith("rank", "node", "pid", "state", "exitStatus");
    assertThat(proc.get("node")).isEqualTo(alloc.nodes().get(0));
    assertThat((Long) proc.get("pid")).isPositive();
    assertThat(object(jobs, "nspace", tool.self().nspace()).get("kind")).isEqualTo("tool");
  }

  @Test
  void allocationStatusIsFoundByEitherId() throws Exception {
    assertThat(tool.allocationStatus(alloc.allocId())).isEqualTo("active");
    assertThat(tool.allocationStatus("q1")).isEqualTo("active");
    PmixException e =
        catchThrowableOfType(PmixException.class, () -> tool.allocationStatus("nope"));
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
  }

  @Test
  void theStandardKeysAreAnswered() throws Exception {
    Info byAlloc = Info.of(PmixKeys.ALLOC_ID, Value.string(alloc.allocId()));
    List<Info> r =
        tool.query(
            new Query(List.of(PmixKeys.QUERY_ALLOC_IDS, "pmix.qry.ns"), List.of()),
            new Query(List.of(PmixKeys.QUERY_ALLOCATION, PmixKeys.NUM_SLOTS), List.of(byAlloc)),
            new Query(
                List.of("pmix.qry.jst"),
                List.of(Info.of(PmixKeys.NSPACE, Value.string(job.nspace())))));
    assertThat(r)
        .extracting(Info::key)
        .containsExactly(
            PmixKeys.QUERY_ALLOC_IDS,
            "pmix.qry.ns",
            PmixKeys.QUERY_ALLOCATION,
            PmixKeys.NUM_SLOTS,
            "pmix.qry.jst");
    assertThat(r.get(0).value().asArray().elementsAs(String.class))
        .containsExactly(alloc.allocId());
    assertThat(r.get(1).value().asString().split(",")).contains(tool.self().nspace(), job.nspace());
    DataArray nodes = r.get(2).value().asArray();
    assertThat(nodes.type()).isEqualTo(DataType.INFO);
    List<Info> node = nodes.elementsAs(Info.class).get(0).value().asArray().elementsAs(Info.class);
    assertThat(node.get(0).key()).isEqualTo(PmixKeys.HOSTNAME);
    assertThat(node.get(0).value().asString()).isEqualTo(alloc.nodes().get(0));
    assertThat(r.get(3).value().asLong()).isEqualTo(2);
    assertThat(r.get(4).value().asLong()).isEqualTo(PmixStatus.SUCCESS);
  }

  @Test
  void aJobsQueryQualifiedByNamespaceListsThatJobAloneAndAnUnknownOneIsLeftOut() throws Exception {
    String key = JdvmProtocol.QUERY_JOBS;
    List<Info> r =
        tool.query(
            new Query(List.of(key), List.of(Info.of(PmixKeys.NSPACE, Value.string("t@999")))),
            new Query(List.of(key), List.of(Info.of(PmixKeys.NSPACE, Value.string(job.nspace())))));
    assertThat(r).extracting(Info::key).containsExactly(key);
    List<?> jobs = (List<?>) Json.parse(r.get(0).value().asString());
    assertThat(jobs).hasSize(1);
    assertThat(object(jobs, "nspace", job.nspace()).get("state")).isEqualTo("running");
    PmixException e =
        catchThrowableOfType(
            PmixException.class,
            () ->
                tool.query(
                    new Query(
                        List.of(key), List.of(Info.of(PmixKeys.NSPACE, Value.string("t@999"))))));
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_NOT_FOUND);
  }

  @Test
  void keysThatCannotBeAnsweredAreLeftOutAndOnlyAllUnansweredIsAnError() throws Exception {
    List<Info> r = tool.query(new Query(List.of("pmix.qry.psets", "pmix.qry.ns"), List.of()));
    assertThat(r).extracting(Info::key).containsExactly("pmix.qry.ns");
    PmixException e =
        catchThrowableOfType(
            PmixException.class, () -> tool.query(new Query(List.of("pmix.qry.psets"), List.of())));
    assertThat(e.status()).isEqualTo(PmixStatus.ERR_NOT_SUPPORTED);
    PmixException missing =
        catchThrowableOfType(
            PmixException.class,
            () -> tool.query(new Query(List.of(PmixKeys.QUERY_ALLOC_STATUS), List.of())));
    assertThat(missing.status()).isEqualTo(PmixStatus.ERR_BAD_PARAM);
  }
}
