package org.jdvm.host.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A fake {@code /sys} and {@code /proc/self/status} under a directory: packages of NUMA nodes of
 * cores of two hardware threads, numbered as Linux numbers an Intel host (the second thread of core
 * c is cpu c + cores), each core with its own L1 and L2 and each package one L3.
 */
public final class FakeSys {
  private FakeSys() {}

  /**
   * Writes the tree and returns its root.
   *
   * @param allowed this process's {@code Cpus_allowed_list}
   */
  public static Path write(
      Path root, int packages, int numaPerPackage, int coresPerNuma, String allowed)
      throws IOException {
    int cores = packages * numaPerPackage * coresPerNuma;
    Path cpu = Files.createDirectories(root.resolve("sys/devices/system/cpu"));
    Files.writeString(cpu.resolve("online"), "0-" + (2 * cores - 1) + "\n");
    StringBuilder[] numa = new StringBuilder[packages * numaPerPackage];
    for (int id = 0; id < 2 * cores; id++) {
      int core = id % cores;
      int pkg = core / (numaPerPackage * coresPerNuma);
      int node = core / coresPerNuma;
      Path topo = Files.createDirectories(cpu.resolve("cpu" + id + "/topology"));
      Files.writeString(topo.resolve("physical_package_id"), pkg + "\n");
      Files.writeString(topo.resolve("core_id"), (core % (numaPerPackage * coresPerNuma)) + "\n");
      Files.writeString(topo.resolve("thread_siblings_list"), core + "," + (core + cores) + "\n");
      cache(cpu.resolve("cpu" + id + "/cache/index0"), 1, "Data", core + "," + (core + cores));
      cache(
          cpu.resolve("cpu" + id + "/cache/index1"), 1, "Instruction", core + "," + (core + cores));
      cache(cpu.resolve("cpu" + id + "/cache/index2"), 2, "Unified", core + "," + (core + cores));
      int per = numaPerPackage * coresPerNuma;
      int first = pkg * per;
      cache(
          cpu.resolve("cpu" + id + "/cache/index3"),
          3,
          "Unified",
          first
              + "-"
              + (first + per - 1)
              + ","
              + (first + cores)
              + "-"
              + (first + cores + per - 1));
      if (numa[node] == null) {
        numa[node] = new StringBuilder();
      } else {
        numa[node].append(',');
      }
      numa[node].append(id);
    }
    for (int n = 0; n < numa.length; n++) {
      Path d = Files.createDirectories(root.resolve("sys/devices/system/node/node" + n));
      Files.writeString(d.resolve("cpulist"), numa[n] + "\n");
    }
    Path self = Files.createDirectories(root.resolve("proc/self"));
    Files.writeString(
        self.resolve("status"), "Name:\tjava\nCpus_allowed_list:\t" + allowed + "\nFoo:\t1\n");
    return root;
  }

  private static void cache(Path dir, int level, String type, String shared) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("level"), level + "\n");
    Files.writeString(dir.resolve("type"), type + "\n");
    Files.writeString(dir.resolve("shared_cpu_list"), shared + "\n");
  }
}
