package org.jdvm.server.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Effect;
import org.jdvm.core.Effect.LaunchProcs;
import org.jdvm.core.Effect.ProcLaunch;
import org.jdvm.host.topology.Topology;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Value;
import org.junit.jupiter.api.Test;

/**
 * The shell's binding of one batch of launches ({@link LaunchBindings}): every node of a job from
 * its own topology, what each process's job data says of it, and a job refused whole when one of
 * its nodes cannot honour it.
 */
class LaunchBindingsTest {
  /** One package of {@code cores} cores, one thread each, cpus numbered from {@code first}. */
  private static Topology node(int first, int cores) {
    List<Topology.Cpu> cpus = new ArrayList<>();
    for (int c = 0; c < cores; c++) {
      cpus.add(new Topology.Cpu(first + c, 0, 0, first + c));
    }
    return new Topology(cpus);
  }

  private static LaunchProcs launch(String node, int firstRank, int n, Info... infos) {
    App app = new App("true", List.of("true"), List.of(), null, n, List.of(infos));
    List<ProcLaunch> procs = new ArrayList<>();
    for (int r = firstRank; r < firstRank + n; r++) {
      procs.add(new ProcLaunch(r, 0, app, List.of(), false));
    }
    return new LaunchProcs(node, "j@1", procs);
  }

  private static final Map<String, Topology> NODES = Map.of("a", node(0, 2), "b", node(4, 4));

  @Test
  void eachNodeIsBoundFromItsOwnTopologyAndTheJobDataSaysWhere() {
    Info core = Info.of(PmixKeys.BINDTO, Value.string("core"));
    List<Effect> batch = List.of(launch("a", 0, 2, core), launch("b", 2, 2, core));
    LaunchBindings.Plan plan = LaunchBindings.plan(batch, NODES::get);
    assertThat(plan.refused()).isEmpty();
    Map<Integer, ProcPlaces.Place> places = plan.places().get("j@1");
    assertThat(places.get(0).cpuset()).isEqualTo("0");
    assertThat(places.get(1).cpuset()).isEqualTo("1");
    assertThat(places.get(2).cpuset()).isEqualTo("4");
    assertThat(places.get(3).cpuset()).isEqualTo("5");
    assertThat(places.get(3).locality()).isEqualTo("SK0:CR5:HT5:NM0");
    assertThat(places.get(3).description()).isEqualTo("package[0][core:5]");
    assertThat(places.get(0).signature()).isEqualTo(NODES.get("a").signature());
    assertThat(plan.policies().get("j@1"))
        .isEqualTo(new ProcPlaces.Policies("BYSLOT", "SLOT", "CORE"));
  }

  @Test
  void oneNodeThatCannotHonourTheRequestRefusesTheWholeJob() {
    Info core = Info.of(PmixKeys.BINDTO, Value.string("core"));
    List<Effect> batch = List.of(launch("b", 0, 3, core), launch("a", 3, 3, core));
    LaunchBindings.Plan plan = LaunchBindings.plan(batch, NODES::get);
    assertThat(plan.refused().get("j@1"))
        .startsWith("node a cannot bind 3 processes to cores: it has 2 cores");
  }

  @Test
  void aNodeWithoutATopologyBindsNothingAndRefusesAnAskedBinding() {
    List<Effect> batch = List.of(launch("x", 0, 1));
    LaunchBindings.Plan plan = LaunchBindings.plan(batch, n -> null);
    assertThat(plan.refused()).isEmpty();
    assertThat(plan.cpus("j@1", 0)).isNull();
    LaunchBindings.Plan asked =
        LaunchBindings.plan(
            List.of(launch("x", 0, 1, Info.of(PmixKeys.BINDTO, Value.string("core")))), n -> null);
    assertThat(asked.refused().get("j@1")).contains("did not report its topology");
  }

  @Test
  void mapByNodeAndReportAreKeptForTheJob() {
    List<Effect> batch =
        List.of(
            launch(
                "b",
                0,
                1,
                Info.of(PmixKeys.MAPBY, Value.string("node")),
                Info.of(PmixKeys.BINDTO, Value.string("numa:overload-allowed")),
                Info.of(PmixKeys.REPORT_BINDINGS, Value.bool(true))));
    LaunchBindings.Plan plan = LaunchBindings.plan(batch, NODES::get);
    assertThat(plan.report()).containsExactly("j@1");
    assertThat(plan.policies().get("j@1"))
        .isEqualTo(new ProcPlaces.Policies("BYNODE", "SLOT", "NUMA:OVERLOAD-ALLOWED"));
    assertThat(plan.places().get("j@1").get(0).cpuset()).isEqualTo("4-7");
  }
}
