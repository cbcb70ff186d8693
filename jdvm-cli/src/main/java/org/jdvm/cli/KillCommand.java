package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jdvm kill JOB [--signal S]}: ends one job ({@code PMIx_Job_control} with {@code
 * PMIX_JOB_CTRL_TERMINATE}: every process of it gets TERM, then KILL after the DVM's grace period,
 * on all its nodes together), or sends it one signal ({@code PMIX_JOB_CTRL_SIGNAL}). It acts as the
 * scheduler, with the credential in the DVM's directory, which may control any job (docs/cli.md
 * "Exit statuses" for what it returns).
 */
@Command(
    description = "End a job (TERM, then KILL after the grace period), or send it a signal.",
    mixinStandardHelpOptions = true)
public final class KillCommand extends DvmCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "JOB", description = "The job's namespace.")
  String nspace;

  @Option(
      names = "--signal",
      paramLabel = "SIG",
      description = "Send this signal instead (a number, or a name such as TERM or USR1).")
  String signal;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  /**
   * Options written after JOB ({@code jdvm kill JOB --signal USR1}): parsing stops at the first
   * positional argument for every command (Subcommand), so {@code --signal} and {@code --json}
   * there are read here.
   */
  @Parameters(index = "1..*", paramLabel = "OPTION", hidden = true)
  List<String> after = new ArrayList<>();

  @Override
  public Integer call() {
    for (int i = 0; i < after.size(); i++) {
      String a = after.get(i);
      if (a.equals("--json")) {
        json = true;
      } else if (a.equals("--signal") && i + 1 < after.size()) {
        signal = after.get(++i);
      } else if (a.startsWith("--signal=")) {
        signal = a.substring("--signal=".length());
      } else {
        err.println(
            "jdvm kill: unexpected '" + a + "' (usage: jdvm kill JOB [--signal SIG] [--json])");
        return Main.EXIT_USAGE;
      }
    }
    Integer number = null;
    if (signal != null) {
      try {
        number = Signal.parse(signal);
      } catch (IllegalArgumentException e) {
        err.println("jdvm kill: " + e.getMessage());
        return Main.EXIT_USAGE;
      }
      if (!Signal.isSignalNumber(number)) {
        err.println(
            "jdvm kill: " + signal + " is not a signal number (1-" + Signal.MAX_NUMBER + ")");
        return Main.EXIT_USAGE;
      }
    }
    Integer sig = number;
    return dvm.runAsScheduler(
        json,
        out,
        err,
        client -> {
          if (sig == null) {
            client.terminate(nspace);
          } else {
            client.signal(nspace, sig);
          }
          if (json) {
            Map<String, Object> m = Outcomes.success();
            m.put("nspace", nspace);
            m.put("action", sig == null ? "terminate" : "signal");
            m.put("signal", sig);
            out.println(Json.write(m));
          } else {
            out.println(
                "job "
                    + nspace
                    + (sig == null
                        ? ": ending (TERM, then KILL after the grace period)"
                        : ": sent signal " + signalName(sig)));
          }
          return Main.EXIT_OK;
        });
  }

  private static String signalName(int number) {
    for (Signal s : Signal.values()) {
      if (s.number() == number) {
        return s.name() + " (" + number + ")";
      }
    }
    return Integer.toString(number);
  }
}
