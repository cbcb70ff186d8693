package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jdvm.client.JobEnd;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.OutputReplay;
import org.jdvm.client.PmixException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jdvm output JOB [--follow]} (docs/cli.md "jdvm output"): replays what the controller kept
 * of a job's output, as Flux's {@code flux job attach} does, each line labelled as {@code
 * --tag-output} labels it ({@code [JOB,RANK]<stdout>: }, standard error to standard error). With
 * {@code --follow} it goes on with the job's output until the job ends, then exits with the job's
 * exit status, as {@code jdvm run} would have, so {@code jdvm run --detach} then {@code jdvm output
 * --follow} is a run that was detached; a replay alone exits 0 whatever the job's status (it
 * succeeded in reading). A job that lost output to the bounds says so on standard error.
 */
@Command(
    description = "Replay a job's output (kept by the DVM), or follow it until the job ends.",
    mixinStandardHelpOptions = true)
public final class OutputCommand extends DvmCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "JOB", description = "The job's namespace.")
  String nspace;

  @Option(
      names = {"-f", "--follow"},
      description = "Go on until the job ends; exit with its exit status.")
  boolean follow;

  /** Options after JOB: parsing stops at the first positional argument (Subcommand). */
  @Parameters(index = "1..*", paramLabel = "OPTION", hidden = true)
  List<String> after = new ArrayList<>();

  @Override
  public Integer call() {
    for (String a : after) {
      if (a.equals("--follow") || a.equals("-f")) {
        follow = true;
      } else {
        err.println("jdvm output: unexpected '" + a + "' (usage: jdvm output JOB [--follow])");
        return Main.EXIT_USAGE;
      }
    }
    OutputHandler show =
        (source, stderr, bytes) -> {
          var to = stderr ? err : out;
          to.write(bytes, 0, bytes.length);
          to.flush();
        };
    return connected(show, false, client -> replay(client));
  }

  private int replay(org.jdvm.client.JdvmClient client) throws PmixException {
    OutputReplay r = client.replayOutput(nspace, follow);
    client.delivered().join();
    if (r.droppedBytes() > 0) {
      err.println(
          "jdvm output: output truncated: "
              + r.droppedBytes()
              + " bytes dropped (the job's oldest), first kept is byte "
              + r.droppedBytes()
              + " of "
              + r.writtenBytes()
              + " written (docs/cli.md \"jdvm output\" for the bounds)");
    }
    if (!follow) {
      return Main.EXIT_OK;
    }
    JobEnd end = r.end().join();
    client.delivered().join();
    return end.exitCode();
  }
}
