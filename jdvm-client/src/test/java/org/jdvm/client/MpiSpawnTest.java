package org.jdvm.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code MPI_Comm_spawn} from a running job under a real in-process DVM, in C and in mpi4py
 * (docs/wireup.md §c.10): the parent ranks spawn two children, which answer through the
 * intercommunicator; every parent and child line reaches the tool that ran the parent, the parent
 * job's end comes after the children's, and no process is left (the DVM's close checks). Skipped,
 * saying why, without Open MPI or mpi4py, and until the DVM serves the modex MPI_Init needs.
 */
class MpiSpawnTest {
  @TempDir static Path bin;
  @TempDir Path home;

  private static String skipped;

  @BeforeAll
  static void build() throws Exception {
    skipped = WireupPrograms.build(bin, "mpi_spawn");
  }

  private static void parentsAndChildrenAnswer(Path home, String program, List<String> argv)
      throws Exception {
    try (TestDvm t = TestDvm.start(home, 2, 2, 0)) {
      assumeTrue(WireupPrograms.modexServed(t), "needs the modex (FENCENB/GETNB)");
      TestDvm.Output out = new TestDvm.Output();
      JdvmClient tool = t.tool(out);
      Job job = tool.spawn(SpawnRequest.of(argv).procs(2).notifyCompletion(true).build());
      JobEnd end = job.end().get(90, TimeUnit.SECONDS);
      List<String> lines = WireupPrograms.lines(out);
      assertThat(lines)
          .as(program + " parents")
          .filteredOn(l -> l.startsWith("OK " + program + " parent"))
          .hasSize(2)
          .allMatch(l -> l.contains("size=2 children=2 sum=201"));
      assertThat(lines)
          .as(program + " children")
          .filteredOn(l -> l.startsWith("OK " + program + " child"))
          .hasSize(2)
          .allMatch(l -> l.contains("size=2 parents=2"));
      assertThat(lines).noneMatch(l -> l.startsWith("FAIL"));
      assertThat(end.exitCode()).isZero();
    }
  }

  @Test
  void anMpiProgramSpawnsChildrenThatAnswerThroughTheIntercommunicator() throws Exception {
    assumeTrue(skipped == null, skipped);
    parentsAndChildrenAnswer(home, "mpi_spawn", List.of(bin.resolve("mpi_spawn").toString()));
  }

  @Test
  void anMpi4pyProgramSpawnsChildrenThatAnswerThroughTheIntercommunicator() throws Exception {
    String missing = WireupPrograms.mpi4pyMissing();
    assumeTrue(missing == null, missing);
    Path script = WireupPrograms.script(bin, "mpi4py_spawn.py");
    parentsAndChildrenAnswer(home, "mpi4py_spawn", List.of("/usr/bin/python3", script.toString()));
  }
}
