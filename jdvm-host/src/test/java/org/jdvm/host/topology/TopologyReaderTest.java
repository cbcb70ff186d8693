package org.jdvm.host.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jdvm.host.topology.Topology.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyReaderTest {
  @TempDir Path dir;

  @Test
  void readsPackagesNumaNodesCoresAndThreads() throws Exception {
    Topology t = new TopologyReader(FakeSys.write(dir, 2, 2, 2, "0-15")).read();
    assertEquals(2, t.count(Level.PACKAGE));
    assertEquals(4, t.count(Level.NUMA));
    assertEquals(8, t.count(Level.CORE));
    assertEquals(16, t.count(Level.HWTHREAD));
    assertEquals("0-3,8-11", CpuList.format(t.objects(Level.PACKAGE).get(0)));
    assertEquals("2-3,10-11", CpuList.format(t.objects(Level.NUMA).get(1)));
    assertEquals("5,13", CpuList.format(t.objects(Level.CORE).get(5)));
    assertEquals("4N:2S:2L3:8L2:8L1:8C:16H:" + Topology.ARCH + ":le", t.signature());
  }

  @Test
  void keepsOnlyTheCpusThisProcessMayUse() throws Exception {
    Topology t = new TopologyReader(FakeSys.write(dir, 2, 2, 2, "4-5,12")).read();
    assertEquals("4-5,12", CpuList.format(t.cpuSet()));
    assertEquals(1, t.count(Level.PACKAGE));
    assertEquals(1, t.count(Level.NUMA));
    assertEquals(2, t.count(Level.CORE));
    assertEquals("1N:1S:1L3:2L2:2L1:2C:3H:" + Topology.ARCH + ":le", t.signature());
    // logical indexes are those of the allowed set, as hwloc numbers an allowed set
    assertEquals("SK0:L30:L20:L10:CR0:HT0-1:NM0", t.localityString(CpuList.parse("4,12")));
  }

  @Test
  void readsThisHost() throws Exception {
    Topology t = TopologyReader.host();
    String allowed = "";
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        allowed = line.substring(line.indexOf(':') + 1).strip();
      }
    }
    assertEquals(CpuList.parse(allowed), t.cpuSet());
    assertTrue(t.count(Level.CORE) >= 1);
  }

  @Test
  void splitsAHostAmongVirtualNodes() throws Exception {
    Topology t = new TopologyReader(FakeSys.write(dir, 2, 2, 2, "0-15")).read();
    assertEquals("0-2,8-10", CpuList.format(t.share(0, 3).cpuSet()));
    assertEquals("3-5,11-13", CpuList.format(t.share(1, 3).cpuSet()));
    assertEquals("6-7,14-15", CpuList.format(t.share(2, 3).cpuSet()));
    assertEquals("1,9", CpuList.format(t.share(9, 10).cpuSet()));
    // a share keeps the host's numbering: its second core is still core 4
    assertEquals(4, t.share(1, 2).cpus().get(0).core());
  }

  @Test
  void aTopologyCrossesTheAgentLinkAsOneLine() throws Exception {
    Topology t = new TopologyReader(FakeSys.write(dir, 2, 2, 2, "0-15")).read().share(1, 2);
    assertEquals(t, Topology.decode(t.encode()));
    assertEquals(t.signature(), Topology.decodeOrNull(t.encode()).signature());
    assertEquals(null, Topology.decodeOrNull(""));
    assertEquals(null, Topology.decodeOrNull("1.2.3"));
  }

  @Test
  void cpuListsRoundTrip() {
    assertEquals("0-3,8,10-11", CpuList.format(CpuList.parse("0-3,8,10,11")));
    assertEquals("", CpuList.format(CpuList.parse("")));
  }
}
