package org.jdvm.host.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binder on a fake host of 2 packages x 2 NUMA nodes x 2 cores x 2 hardware threads. */
class BinderTest {
  @TempDir Path dir;
  Topology host;

  @BeforeEach
  void read() throws Exception {
    host = new TopologyReader(FakeSys.write(dir, 2, 2, 2, "0-15")).read();
  }

  private List<String> cpus(int procs, int jobProcs, String mapBy, String bindTo, int pe)
      throws Binder.Refused {
    return Binder.bind(host, "n0", procs, jobProcs, Directives.parse(mapBy, bindTo, pe, false))
        .stream()
        .map(b -> CpuList.format(b.cpus()))
        .toList();
  }

  private List<String> words(int procs, String mapBy, String bindTo, int pe) throws Binder.Refused {
    return Binder.bind(host, "n0", procs, procs, Directives.parse(mapBy, bindTo, pe, false))
        .stream()
        .map(Binder.Bound::description)
        .toList();
  }

  @Test
  void bindToCoreMapByCoreTakesSuccessiveCores() throws Exception {
    assertEquals(List.of("0,8", "1,9", "2,10"), cpus(3, 3, "core", "core", 0));
    assertEquals(List.of("package[0][core:0]", "package[0][core:1]"), words(2, "core", "core", 0));
  }

  @Test
  void mapBySocketDealsRanksToPackagesInTurn() throws Exception {
    assertEquals(List.of("0,8", "4,12", "1,9", "5,13"), cpus(4, 4, "socket", "core", 0));
    assertEquals(List.of("0-3,8-11", "4-7,12-15", "0-3,8-11"), cpus(3, 3, "package", "package", 0));
  }

  @Test
  void mapByNumaAndBindToNuma() throws Exception {
    assertEquals(List.of("0-1,8-9", "2-3,10-11", "4-5,12-13"), cpus(3, 3, "numa", "numa", 0));
  }

  @Test
  void bindToHwthread() throws Exception {
    // map-by core: one core each, its first thread
    assertEquals(List.of("0", "1", "2"), cpus(3, 3, "core", "hwthread", 0));
    // map-by hwthread: threads in hwloc's logical order, a core's threads first
    assertEquals(List.of("0", "8", "1"), cpus(3, 3, "hwthread", "hwthread", 0));
    assertEquals(List.of("package[0][hwt:1]"), words(2, "hwthread", "hwthread", 0).subList(1, 2));
    assertEquals(List.of("0", "4", "8"), cpus(3, 3, "socket", "hwthread", 0));
  }

  @Test
  void processElementsGiveEachProcessSeveralCores() throws Exception {
    assertEquals(List.of("0-1,8-9", "4-5,12-13", "2-3,10-11"), cpus(3, 3, "package:PE=2", null, 0));
    assertEquals(List.of("0-2,8-10", "3-5,11-13"), cpus(2, 2, null, null, 3));
    assertEquals(List.of("package[0][core:0-1]"), words(1, "socket:PE=2", "core", 0));
  }

  @Test
  void defaultIsCoreForTwoProcessesNumaBeyondAndNoneWhenOversubscribed() throws Exception {
    assertEquals(List.of("0,8", "1,9"), cpus(2, 2, null, null, 0));
    assertEquals(List.of("0-1,8-9", "2-3,10-11", "4-5,12-13"), cpus(3, 3, null, null, 0));
    List<Binder.Bound> over = Binder.bind(host, "n0", 9, 9, Directives.DEFAULT);
    assertFalse(over.get(0).bound());
    assertEquals("0-15", CpuList.format(over.get(8).cpus()));
    assertEquals(List.of("0-3,8-11"), cpus(1, 1, "socket", null, 0));
  }

  @Test
  void bindToNoneLeavesTheNodeWhole() throws Exception {
    assertEquals(List.of("0-15", "0-15"), cpus(2, 2, "core", "none", 0));
  }

  @Test
  void moreProcessesThanCoresIsRefusedUnlessOverloadAllowed() throws Exception {
    Binder.Refused e = assertThrows(Binder.Refused.class, () -> cpus(9, 9, "core", "core", 0));
    assertTrue(
        e.getMessage().contains("node n0 cannot bind 9 processes to cores: it has 8 cores"),
        e.getMessage());
    assertEquals("0,8", cpus(9, 9, "core", "core:overload-allowed", 0).get(8));
  }

  @Test
  void morePeThanTheNodeHasIsRefused() {
    Binder.Refused e = assertThrows(Binder.Refused.class, () -> cpus(1, 1, null, null, 9));
    assertEquals("node n0 cannot give a process 9 cores (PE=9): it has 8", e.getMessage());
    Binder.Refused inPackage =
        assertThrows(Binder.Refused.class, () -> cpus(1, 1, "socket:PE=5", null, 0));
    assertTrue(inPackage.getMessage().contains("within one package"), inPackage.getMessage());
  }

  @Test
  void aVirtualNodeBindsInsideItsShare() throws Exception {
    Topology share = host.share(1, 2);
    assertEquals(
        List.of("package[1][core:4]", "package[1][core:5]"),
        Binder.bind(share, "n1", 2, 2, Directives.parse("core", "core", 0, false)).stream()
            .map(Binder.Bound::description)
            .toList());
  }

  @Test
  void otherJobsOnTheNodeSteerTheBindingButRefuseNothing() throws Exception {
    java.util.BitSet core0 = CpuList.parse("0,8");
    Binder.Neighbours one = new Binder.Neighbours(List.of(core0), 1);
    // a second job's rank goes to a core the first does not use
    assertEquals(
        List.of("1,9"),
        Binder.bind(host, "n0", 1, 1, Directives.DEFAULT, one).stream()
            .map(b -> CpuList.format(b.cpus()))
            .toList());
    // a full node, all jobs together, binds nothing by default, as PRRTE
    Binder.Neighbours full = new Binder.Neighbours(List.of(), 8);
    assertFalse(Binder.bind(host, "n0", 1, 1, Directives.DEFAULT, full).get(0).bound());
    // but an asked binding is made, and other jobs' processes do not make it refused
    List<java.util.BitSet> all = host.objects(Topology.Level.CORE);
    Binder.Neighbours busy = new Binder.Neighbours(all, 8);
    assertTrue(
        Binder.bind(host, "n0", 8, 8, Directives.parse(null, "core", 0, false), busy).stream()
            .allMatch(Binder.Bound::bound));
  }

  @Test
  void directivesAreRefusedWhenNotUnderstood() {
    assertThrows(IllegalArgumentException.class, () -> Directives.parse("board", null, 0, false));
    assertThrows(IllegalArgumentException.class, () -> Directives.parse(null, "l9cache", 0, false));
    assertThrows(
        IllegalArgumentException.class, () -> Directives.parse("core:PE=0", null, 0, false));
    assertThrows(
        IllegalArgumentException.class, () -> Directives.parse("core:PE=2", "package", 0, false));
    assertEquals(2, Directives.parse("ppr:2:socket:PE=2", null, 0, false).pe());
  }
}
