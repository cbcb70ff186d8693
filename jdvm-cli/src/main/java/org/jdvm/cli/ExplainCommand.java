package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jdvm explain} (docs/cli.md): why a job runs where it does, or why a spawn with {@code jdvm
 * run}'s options would go ahead or be refused, node by node, citing the rule of spec §8.2.1. The
 * DVM decides it with the spawn's own functions, for this command's own namespace (as {@code jdvm
 * run} from the same place would be decided); this command only says it in words.
 */
@Command(
    description =
        "Why a job runs where it does, or why a spawn with jdvm run's options would go ahead or"
            + " be refused, node by node (spec §8.2.1). Exits 0 if it would go ahead, 3 if not.",
    mixinStandardHelpOptions = true)
final class ExplainCommand extends DvmCommand implements Callable<Integer> {
  @Mixin ExplainOptions options = new ExplainOptions();

  @Option(names = "--json", description = "Print the JSON object documented in docs/cli.md.")
  boolean json;

  @Parameters(
      paramLabel = "JOB",
      arity = "0..1",
      description = "A job's namespace: explain where it runs (the spawn options are then unused).")
  String job;

  @Override
  public Integer call() {
    String bad = options.check();
    if (bad != null) {
      err.println("jdvm explain: " + bad);
      return Main.EXIT_USAGE;
    }
    return connected(OutputHandler.DISCARD, json, this::show);
  }

  private int show(JdvmClient client) throws PmixException {
    List<Info> q = new ArrayList<>();
    if (job != null) {
      q.add(Info.of(JdvmProtocol.EXPLAIN_JOB, Value.string(job)));
    } else {
      SpawnRequest r = options.request();
      q.addAll(r.infos());
      q.add(Info.of(JdvmProtocol.EXPLAIN_PROCS, Value.string(String.valueOf(options.procs))));
    }
    options.narrow(q);
    String text;
    try {
      text = client.explainJson(q);
    } catch (PmixException e) {
      if (job != null && e.status() == PmixStatus.ERR_NOT_FOUND) {
        err.println("jdvm explain: no job " + job + " (PMIX_ERR_NOT_FOUND)");
        return Main.EXIT_REFUSED;
      }
      throw e;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> e = (Map<String, Object>) Json.parse(text);
    if (json) {
      out.println(text);
    } else {
      Explaining.print(e, out);
    }
    return Boolean.TRUE.equals(e.get("allowed")) ? Main.EXIT_OK : Main.EXIT_REFUSED;
  }
}
