package org.jdvm.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.json.Json;

/**
 * After a refused {@code jdvm run}: the rule that refused it in one line, asked of the DVM on the
 * same connection (so for the same requester and the same spawn attributes), and the {@code jdvm
 * explain} command that says it node by node (docs/cli.md). Said only when the DVM's explanation
 * refuses the spawn too: a spawn refused for something else (its output files) gets neither.
 */
final class RefusedRunHint {
  private RefusedRunHint() {}

  /**
   * The statuses a spawn's own rules refuse with (spec §8.2.1.8); others are not about placement.
   */
  private static final List<Integer> PLACEMENT_REFUSALS =
      List.of(
          PmixStatus.ERR_NO_PERMISSIONS,
          PmixStatus.ERR_NOT_FOUND,
          PmixStatus.ERR_NOT_AVAILABLE,
          PmixStatus.ERR_OUT_OF_RESOURCE);

  static void say(
      JdvmClient client,
      SpawnRequest request,
      List<String> targets,
      RunPlacementOptions placement,
      int status,
      PrintStream err) {
    if (!PLACEMENT_REFUSALS.contains(status)) {
      return;
    }
    List<Info> q = new ArrayList<>(request.infos());
    List<String> counts = new ArrayList<>();
    for (App a : request.apps()) {
      counts.add(String.valueOf(a.maxprocs()));
    }
    q.add(Info.of(JdvmProtocol.EXPLAIN_PROCS, Value.string(String.join(",", counts))));
    Map<String, Object> e;
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> answer = (Map<String, Object>) Json.parse(client.explainJson(q));
      e = answer;
    } catch (PmixException | RuntimeException x) {
      return; // the reason line is a courtesy; the refusal itself was said already
    }
    if (Boolean.TRUE.equals(e.get("allowed"))) {
      return; // refused for something else than where it may run (its output files, say)
    }
    err.println("jdvm run: " + Explaining.summary(e));
    List<String> args = args(request, targets, placement);
    err.println("see: jdvm explain" + (args.isEmpty() ? "" : " " + String.join(" ", args)));
  }

  /** The arguments of {@code jdvm explain} that ask about this spawn: {@code jdvm run}'s own. */
  static List<String> args(
      SpawnRequest request, List<String> targets, RunPlacementOptions placement) {
    List<String> args = new ArrayList<>();
    int total = request.apps().stream().mapToInt(App::maxprocs).sum();
    if (total != 1) {
      args.addAll(List.of("-n", String.valueOf(total)));
    }
    for (String t : targets) {
      args.addAll(List.of("--target", t));
    }
    args.addAll(placement.whereArgs());
    return args;
  }
}
