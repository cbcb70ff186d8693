package org.jdvm.endpoint.pmi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.junit.jupiter.api.Test;

/**
 * The simple PMI engine against its protocol file ({@code src/test/resources/pmi/simple-pmi.txt}):
 * lines in, lines out, bad lines included, in the data-driven form of the PMIx endpoint's protocol
 * files. The backend here is a small in-memory job; the same engine runs over the DVM's modex and
 * fences in {@code MpichEndToEndTest}.
 */
class PmiEngineProtocolTest {
  /** Job "job@1": 2 ranks on 2 nodes; rank 1 put "bc1". */
  private static final class FakeJob implements PmiBackend {
    final Map<String, String> kvs = new HashMap<>(Map.of("bc1", "from-rank-1"));
    final Map<String, Integer> owner = new HashMap<>(Map.of("bc1", 1));
    final List<String> aborts = new ArrayList<>();
    final List<String> spawns = new ArrayList<>();
    final Map<String, String> names = new HashMap<>();

    @Override
    public CompletableFuture<Optional<Facts>> facts(Proc self) {
      return CompletableFuture.completedFuture(
          Optional.of(new Facts(2, 4, 0, ProcessMapping.of(List.of(List.of(0), List.of(1)), 2))));
    }

    @Override
    public String put(Proc self, String key, String value) {
      Integer o = owner.get(key);
      if (o != null && o != self.rank()) {
        return "key " + key + " was put by rank " + o;
      }
      owner.put(key, self.rank());
      kvs.put(key, value);
      return null;
    }

    @Override
    public CompletableFuture<Got> get(Proc self, String key) {
      String v = kvs.get(key);
      return CompletableFuture.completedFuture(
          v == null ? Got.refused("no rank put " + key) : new Got(v, null));
    }

    final List<String> barriers = new ArrayList<>();

    @Override
    public CompletableFuture<Integer> barrier(Proc self, List<Integer> represented) {
      barriers.add(self + " for " + represented);
      return CompletableFuture.completedFuture(PmixStatus.SUCCESS);
    }

    @Override
    public void abort(Proc self, int exitCode, String message) {
      aborts.add(self + ":" + exitCode);
    }

    /** Spawns anything but "./missing", recording each app as {@code cmd args nprocs wdir}. */
    @Override
    public CompletableFuture<String> spawn(Proc self, PmiSpawn.Request request, String cwd) {
      for (PmiSpawn.App a : request.apps()) {
        if (a.execname().equals("./missing")) {
          return CompletableFuture.completedFuture("spawn refused, PMIX_ERR_JOB_EXE_NOT_FOUND");
        }
      }
      for (PmiSpawn.App a : request.apps()) {
        spawns.add(
            a.execname()
                + " "
                + a.args()
                + " x"
                + a.nprocs()
                + " in "
                + a.info().getOrDefault("wdir", cwd)
                + " preput "
                + request.preput());
      }
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<String> publish(Proc self, String service, String port) {
      return CompletableFuture.completedFuture(
          names.putIfAbsent(service, port) == null
              ? null
              : "publish refused, PMIX_ERR_DUPLICATE_KEY");
    }

    @Override
    public CompletableFuture<Got> lookup(Proc self, String service) {
      String port = names.get(service);
      return CompletableFuture.completedFuture(
          port == null
              ? Got.refused("nothing is published under " + service)
              : new Got(port, null));
    }

    final Map<String, String> nodeAttrs = new HashMap<>();

    @Override
    public String putNodeAttr(Proc self, String key, String value) {
      nodeAttrs.put(key, value);
      return null;
    }

    @Override
    public CompletableFuture<Got> nodeAttr(Proc self, String key, boolean wait) {
      String v = nodeAttrs.get(key);
      return CompletableFuture.completedFuture(
          v == null ? Got.refused("no rank put " + key) : new Got(v, null));
    }

    @Override
    public String unpublish(Proc self, String service) {
      return names.remove(service) == null ? "unpublish refused, PMIX_ERR_NOT_FOUND" : null;
    }
  }

  private static Optional<PmiEngine.Identified> identify(int id) {
    return id == 1 || id == 2
        ? Optional.of(new PmiEngine.Identified(new Proc("job@1", id - 1), "/home/u/run"))
        : Optional.empty();
  }

  @Test
  void everyExchangeOfTheProtocolFileIsAnsweredAsWritten() throws IOException {
    String text;
    try (InputStream in = getClass().getResourceAsStream("/pmi/simple-pmi.txt")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    FakeJob job = new FakeJob();
    PmiEngine engine = null;
    String section = null;
    List<String> pending = new ArrayList<>();
    boolean closed = false;
    int exchanges = 0;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("== ")) {
        assertThat(pending).as("replies left unread in: " + section).isEmpty();
        section = line.substring(3);
        engine = new PmiEngine(job, PmiEngineProtocolTest::identify);
        closed = false;
      } else if (line.startsWith("> ")) {
        assertThat(pending).as(section + ": replies before " + line).isEmpty();
        assertThat(closed).as(section + ": the connection was closed before " + line).isFalse();
        PmiEngine.Reply r = engine.handle(line.substring(2)).join();
        for (String out : r.lines()) {
          assertThat(out).endsWith("\n");
          pending.add(out.substring(0, out.length() - 1));
        }
        closed = r.close();
        exchanges++;
      } else if (line.startsWith("< ")) {
        assertThat(pending).as(section + ": no reply left for " + line).isNotEmpty();
        assertThat(pending.remove(0)).as(section).isEqualTo(line.substring(2));
      }
    }
    assertThat(pending).isEmpty();
    assertThat(exchanges).isGreaterThan(30);
    assertThat(job.aborts).containsExactly("job@1.1:7");
    assertThat(job.spawns)
        .containsExactly(
            "./child [an argument with spaces and = signs, x] x2 in /home/u/run preput"
                + " {PARENT_ROOT_PORT_NAME=tag#0$port#1$}",
            "./other [] x1 in /scratch preput {PARENT_ROOT_PORT_NAME=tag#0$port#1$}");
    assertThat(job.names).containsExactly(Map.entry("other-service", "port-B"));
    // the refused puts changed nothing
    assertThat(job.kvs).containsEntry("bc1", "from-rank-1").doesNotContainKey("k");
  }

  /** The PMI-2 engine against {@code src/test/resources/pmi/simple-pmi2.txt}, the same way. */
  @Test
  void everyCommandOfThePmi2FileIsAnsweredAsWritten() throws IOException {
    String text;
    try (InputStream in = getClass().getResourceAsStream("/pmi/simple-pmi2.txt")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    FakeJob job = new FakeJob();
    Pmi2Engine engine = null;
    List<String> pending = new ArrayList<>();
    String section = null;
    int exchanges = 0;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("== ")) {
        assertThat(pending).as("replies left unread in: " + section).isEmpty();
        section = line.substring(3);
        engine = new Pmi2Engine(job, PmiEngineProtocolTest::identify, false);
      } else if (line.startsWith("> ")) {
        assertThat(pending).as(section + ": replies before " + line).isEmpty();
        pending.addAll(engine.handle(line.substring(2)).join().lines());
        exchanges++;
      } else if (line.startsWith("< ")) {
        assertThat(pending).as(section + ": no reply left for " + line).isNotEmpty();
        assertThat(pending.remove(0)).as(section).isEqualTo(line.substring(2));
      }
    }
    assertThat(pending).isEmpty();
    assertThat(exchanges).isGreaterThan(25);
    assertThat(job.kvs)
        .containsEntry("bc0", "card;with;semicolons")
        .containsEntry("bc1", "from-rank-1");
    assertThat(Pmi2Wire.frame("cmd=x;")).isEqualTo("6     cmd=x;".getBytes(StandardCharsets.UTF_8));
    assertThat(Pmi2Wire.length("36    ".getBytes(StandardCharsets.US_ASCII))).isEqualTo(36);
    assertThat(Pmi2Wire.length("    36".getBytes(StandardCharsets.US_ASCII))).isEqualTo(36);
    assertThat(Pmi2Wire.length("99999x".getBytes(StandardCharsets.US_ASCII))).isEqualTo(-1);
    assertThat(Pmi2Wire.length("999999".getBytes(StandardCharsets.US_ASCII))).isEqualTo(-1);
  }

  /**
   * Lines a node agent's relay carries: it adds the peer's working directory to {@code initack} and
   * its node's other ranks to {@code barrier_in}, which a peer of the controller's own may not.
   */
  @Test
  void aCarriedPeerGetsItsCwdAndItsNodesBarrierEntryFromItsRelayOnly() {
    FakeJob job = new FakeJob();
    PmiEngine carried = new PmiEngine(job, PmiEngineProtocolTest::identify, true);
    carried.handle("cmd=initack pmiid=1 jdvm_cwd=2f686f6d652f75").join();
    assertThat(carried.handle("cmd=barrier_in jdvm_for=1").join().lines())
        .containsExactly("cmd=barrier_out rc=0\n");
    assertThat(carried.handle("cmd=barrier_in jdvm_for=x").join().lines())
        .containsExactly("cmd=barrier_out rc=-1 msg=jdvm_for_lists_ranks\n");
    carried.handle("mcmd=spawn").join();
    for (String l :
        List.of("nprocs=1", "execname=./c", "totspawns=1", "spawnssofar=1", "argcnt=0")) {
      carried.handle(l).join();
    }
    carried.handle("endcmd").join();
    assertThat(job.spawns).containsExactly("./c [] x1 in /home/u preput {}");

    PmiEngine local = new PmiEngine(job, PmiEngineProtocolTest::identify);
    local.handle("cmd=initack pmiid=2 jdvm_cwd=2f").join();
    assertThat(local.handle("cmd=barrier_in jdvm_for=0").join().lines())
        .containsExactly("cmd=barrier_out rc=-1 msg=jdvm_for_is_a_node_agent's_to_send\n");
    assertThat(job.barriers).containsExactly("job@1.0 for [1]");
  }

  @Test
  void aLineLongerThanTheClientsBufferIsRefusedAndChangesNothing() {
    FakeJob job = new FakeJob();
    PmiEngine engine = new PmiEngine(job, PmiEngineProtocolTest::identify);
    engine.handle("cmd=initack pmiid=1").join();
    String value = "v".repeat(PmiLine.MAX_LINE);
    PmiEngine.Reply r = engine.handle("cmd=put kvsname=job@1 key=big value=" + value).join();
    assertThat(r.lines()).containsExactly("cmd=error rc=-1 msg=line_longer_than_1024_bytes\n");
    assertThat(job.kvs).doesNotContainKey("big");
  }

  @Test
  void theProcessMappingCoversEveryRankExactlyInBlocks() {
    // block placement: two nodes of two
    assertThat(ProcessMapping.of(List.of(List.of(0, 1), List.of(2, 3)), 4))
        .isEqualTo("(vector,(0,2,2))");
    // round robin over two nodes
    assertThat(ProcessMapping.of(List.of(List.of(0, 2), List.of(1, 3)), 4))
        .isEqualTo("(vector,(0,2,1),(0,2,1))");
    // uneven: three on the first node, one on the second
    assertThat(ProcessMapping.of(List.of(List.of(0, 1, 2), List.of(3)), 4))
        .isEqualTo("(vector,(0,1,3),(1,1,1))");
    assertThat(ProcessMapping.of(List.of(List.of(0, 1)), 3)).isNull();
    assertThat(ProcessMapping.of(List.of(List.of(0, 0)), 2)).isNull();
    assertThat(ProcessMapping.parseRaw("raw:0,1;2,3"))
        .isEqualTo(List.of(List.of(0, 1), List.of(2, 3)));
    assertThat(ProcessMapping.parseRaw("0,1")).isNull();
  }

  @Test
  void pmiIdsNameLiveProcessesUntilTheirJobIsForgotten() {
    PmiIds ids = new PmiIds();
    int a = ids.idOf(new Proc("job@1", 0));
    int b = ids.idOf(new Proc("job@1", 1));
    int c = ids.idOf(new Proc("job@2", 0));
    assertThat(ids.idOf(new Proc("job@1", 0))).isEqualTo(a);
    assertThat(List.of(a, b, c)).doesNotHaveDuplicates().allMatch(i -> i > 0);
    assertThat(ids.procOf(b)).contains(new Proc("job@1", 1));
    ids.forget("job@1");
    assertThat(ids.procOf(a)).isEmpty();
    assertThat(ids.procOf(c)).contains(new Proc("job@2", 0));
    assertThat(ids.size()).isEqualTo(1);
  }
}
