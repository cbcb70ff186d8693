package org.jdvm.cli;

import static org.jdvm.cli.DvmCommand.ifGiven;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jdvm alloc}: the five allocation directives (rfc0005-allocation-api.txt "Description",
 * spec §8.2.1.5, decisions.md #4–#8), and the salloc-style {@code alloc new -- CMD} (docs/cli.md).
 */
@Command(
    description = "Request, extend, release, reacquire or cancel an allocation.",
    mixinStandardHelpOptions = true,
    subcommands = {
      AllocCommand.New.class,
      AllocCommand.Extend.class,
      AllocCommand.Release.class,
      AllocCommand.Reacquire.class,
      AllocCommand.Cancel.class
    })
public final class AllocCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    // A command of commands does nothing alone: say so, with the usage, as a usage error (2).
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "which command? one is missing after '" + spec.qualifiedName() + "'");
  }

  /** What every allocation subcommand shares: the DVM, JSON output, sending a request. */
  abstract static class Base extends DvmCommand implements Callable<Integer> {
    @Option(names = "--json", description = "Print one JSON object instead of a sentence.")
    boolean json;

    /** Sends the request and prints the result; returns the exit status. */
    int request(AllocationRequest request, String verb) {
      return connected(
          OutputHandler.STDIO,
          json,
          client -> {
            print(client.allocate(request), verb);
            return Main.EXIT_OK;
          });
    }

    /** e.g. {@code allocation alloc-3 granted: node4,node5 (session 3)}, or its JSON object. */
    void print(AllocationResult r, String verb) {
      if (json) {
        out.println(Json.write(Outcomes.granted(r, null)));
        return;
      }
      StringBuilder sb =
          new StringBuilder("allocation ").append(r.allocId()).append(' ').append(verb);
      if (!r.nodes().isEmpty()) {
        sb.append(": ").append(String.join(",", r.nodes()));
      }
      List<String> notes = new ArrayList<>();
      if (r.sessionId() != null) {
        notes.add("session " + r.sessionId());
      }
      if (r.reqId() != null) {
        notes.add("request " + r.reqId());
      }
      if (r.timeLimitSeconds() != null) {
        notes.add("time limit " + r.timeLimitSeconds() + " s");
      }
      if (!notes.isEmpty()) {
        sb.append(" (").append(String.join(", ", notes)).append(')');
      }
      out.println(sb);
    }
  }

  /**
   * What NEW and EXTEND both may set after the nodes: the inheritance, the warning, and {@code
   * --time} (seconds, or [[[[M:]D:]H:]M:]S).
   */
  static void terms(AllocationRequest.Builder b, String inherit, Long warnTimeout, String time) {
    ifGiven(inheritance(inherit), b::inheritance);
    if (warnTimeout != null && (warnTimeout < 0 || warnTimeout > 0xFFFF_FFFFL)) {
      throw new IllegalArgumentException(
          "--warn-timeout takes seconds from 0 to 4294967295, not " + warnTimeout);
    }
    ifGiven(warnTimeout, b::warnTimeout);
    if (time == null) {
      return;
    }
    String usage =
        "--time takes a positive number of seconds or [[[[M:]D:]H:]M:]S, not '" + time + "'";
    if (time.isBlank()) {
      throw new IllegalArgumentException(usage);
    }
    if (time.chars().allMatch(Character::isDigit)) {
      long seconds;
      try {
        seconds = Long.parseLong(time);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(usage);
      }
      if (seconds <= 0) {
        throw new IllegalArgumentException(usage);
      }
      b.timeSeconds(seconds);
    } else {
      try {
        b.time(time);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(usage);
      }
    }
  }

  static AllocInheritance inheritance(String mode) {
    if (mode == null) {
      return null;
    }
    try {
      return AllocInheritance.valueOf(mode.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      // The usage printed with it is the one this error has always shown: jdvm alloc's, as "alloc".
      throw new picocli.CommandLine.ParameterException(
          new picocli.CommandLine(new AllocCommand()).setCommandName("alloc"),
          "--inherit takes none, child, default or child_default, not '" + mode + "'");
    }
  }

  @Command(
      name = "new",
      description = {
        "Request a new allocation (PMIX_ALLOC_NEW).",
        "With -- CMD, run CMD as a job inside it, print the events addressed to this command,"
            + " and hold the allocation until CMD ends; exits with CMD's status."
      },
      mixinStandardHelpOptions = true)
  static final class New extends Base {
    @ArgGroup(exclusive = true)
    AllocNodes nodes;

    @Option(
        names = "--share",
        description = "Put the nodes in the default session (PMIX_ALLOC_SHARE).")
    boolean share;

    @Option(
        names = "--target",
        paramLabel = "NSPACE",
        description = "Reserve for this namespace (PMIX_ALLOC_TARGET).")
    String target;

    @Option(
        names = "--inherit",
        paramLabel = "MODE",
        description = "none, child, default or child_default (PMIX_ALLOC_INHERITANCE).")
    String inherit;

    @Option(
        names = "--warn-timeout",
        paramLabel = "S",
        description = "Warn S seconds before expiry.")
    Long warnTimeout;

    @Option(
        names = "--time",
        paramLabel = "T",
        description = "Time limit: seconds or [[[[M:]D:]H:]M:]S.")
    String time;

    @Option(names = "--req-id", paramLabel = "R", description = "Your own id for the request.")
    String reqId;

    @Option(
        names = "--not-required",
        description = "Let the request wait in the scheduler's queue instead of being refused.")
    boolean notRequired;

    @Parameters(
        paramLabel = "CMD",
        arity = "0..*",
        description = "A command to run inside (after --).")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() {
      AllocationRequest request = request();
      return connected(
          OutputHandler.STDIO,
          json,
          client -> {
            AllocationResult r = client.allocate(request);
            return command.isEmpty() ? bare(client, r) : holding(client, r);
          });
    }

    private AllocationRequest request() {
      AllocationRequest.Builder b = AllocationRequest.newAllocation();
      if (nodes != null) {
        nodes.applyTo(b);
      }
      if (share) {
        b.share(true);
      }
      ifGiven(target, b::target);
      terms(b, inherit, warnTimeout, time);
      ifGiven(reqId, b::reqId);
      if (notRequired) {
        b.notRequired();
      }
      return b.build();
    }

    /**
     * A plain request. From a tool the reservation is owned by this command's namespace, which ends
     * when the command exits: say, before it does, what the disposition in force will then do with
     * the allocation's nodes (decisions.md #2, #11), read back from the DVM's own listing.
     */
    private int bare(JdvmClient client, AllocationResult r) throws PmixException {
      print(r, share ? "granted (shared)" : "granted");
      if (client.role() == Role.TOOL && target == null && !json) {
        err.println(fate(r.allocId(), inheritanceOf(client, r.allocId()), client.self().nspace()));
      }
      return Main.EXIT_OK;
    }

    /** The allocation's inheritance as the DVM holds it, or {@code null} if it does not say. */
    private static String inheritanceOf(JdvmClient client, String allocId) {
      try {
        if (Json.parse(client.allocsJson()) instanceof List<?> allocs) {
          for (Object a : allocs) {
            if (a instanceof Map<?, ?> m && allocId.equals(m.get("allocId"))) {
              return m.get("inheritance") instanceof String s ? s : null;
            }
          }
        }
      } catch (PmixException | RuntimeException e) {
        // Say what the inheritance means in general instead.
      }
      return null;
    }

    /** What becomes of a tool-owned allocation when the command's namespace ends. */
    static String fate(String allocId, String inheritance, String nspace) {
      String when =
          "note: allocation "
              + allocId
              + " is owned by this command's namespace ("
              + nspace
              + "), which ends when the command exits: under inheritance "
              + (inheritance == null ? "(not reported)" : inheritance)
              + " its ";
      String what =
          switch (inheritance == null ? "" : inheritance) {
            case "DEFAULT", "CHILD_DEFAULT" ->
                "nodes stay in the DVM's default pool for good (use --inherit none to hand them"
                    + " back to the scheduler instead)";
            case "NONE", "CHILD" -> "scheduler nodes go back to the scheduler and it is released";
            default -> "nodes go as that inheritance says";
          };
      return when
          + what
          + ". Use --target NSPACE to give it another owner, or 'jdvm alloc new ... -- CMD' to"
          + " run inside it.";
    }

    /** A test's seam: runs once the grant is printed, before CMD is spawned. */
    static volatile Runnable afterGrant = () -> {};

    /** salloc-style: run CMD inside the new allocation and hold it until CMD ends. */
    private int holding(JdvmClient client, AllocationResult r)
        throws PmixException, InterruptedException {
      print(r, "granted");
      out.flush();
      afterGrant.run();
      AllocEvents events = new AllocEvents(json, err);
      client.onEvents(
          events::event, PmixStatus.ALLOC_TIMEOUT_WARNING, PmixStatus.EVENT_SESSION_END);
      RunCommand run = new RunCommand(out, err);
      run.command = command;
      run.targets = List.of(r.allocId());
      run.stdin = "none"; // CMD reads /dev/null, as it always has here
      // Ctrl-C or SIGTERM ends CMD through the same one ordered path as jdvm run's: the client's
      // exit hook ends the job, then closes the connection (which releases the allocation).
      CompletableFuture<Job> spawning = client.spawnAsync(run.request());
      client.onExit(() -> RunCommand.stopJob(client, spawning));
      Interrupts.install(() -> RunCommand.sendStop(client, spawning));
      Job job;
      try {
        job = spawning.get();
      } catch (ExecutionException e) {
        PmixException why =
            e.getCause() instanceof PmixException p
                ? p
                : new PmixException(PmixStatus.ERROR, String.valueOf(e.getCause()));
        return RunCommand.spawnRefused(events.beforeStart(r.allocId(), why), command, out, err);
      }
      return Reattach.awaitEnd(dvm, client, job, OutputHandler.STDIO, err);
    }
  }

  /** The allocation a request names: by id or by request id. */
  static final class Which {
    @Option(names = "--id", paramLabel = "A", description = "The allocation id (PMIX_ALLOC_ID).")
    String id;

    @Option(
        names = "--req-id",
        paramLabel = "R",
        description = "The request id (PMIX_ALLOC_REQ_ID).")
    String reqId;

    void applyTo(AllocationRequest.Builder b) {
      ifGiven(id, b::allocId);
      ifGiven(reqId, b::reqId);
    }
  }

  @Command(
      name = "extend",
      description = "Add nodes or time to an allocation you own (PMIX_ALLOC_EXTEND).",
      mixinStandardHelpOptions = true)
  static final class Extend extends Base {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    @ArgGroup(exclusive = true)
    AllocNodes nodes;

    @Option(names = "--inherit", paramLabel = "MODE", description = "Replace the inheritance.")
    String inherit;

    @Option(
        names = "--warn-timeout",
        paramLabel = "S",
        description = "Warn S seconds before expiry.")
    Long warnTimeout;

    @Option(names = "--time", paramLabel = "T", description = "Time to add.")
    String time;

    @Override
    public Integer call() {
      AllocationRequest.Builder b = AllocationRequest.extend();
      which.applyTo(b);
      if (nodes != null) {
        nodes.applyTo(b);
      }
      terms(b, inherit, warnTimeout, time);
      return request(b.build(), "extended");
    }
  }

  /** What a release names: an allocation, or nodes. */
  static final class ReleaseWhat {
    @Option(names = "--id", paramLabel = "A", description = "The whole allocation, by id.")
    String id;

    @Option(
        names = "--req-id",
        paramLabel = "R",
        description = "The whole allocation, by request id.")
    String reqId;

    @Option(names = "--node-list", paramLabel = "L", description = "These nodes.")
    String list;

    @Option(names = "--nodes", paramLabel = "K", description = "The K most recently granted nodes.")
    Long count;

    void applyTo(AllocationRequest.Builder b) {
      ifGiven(id, b::allocId);
      ifGiven(reqId, b::reqId);
      ifGiven(list, l -> b.nodeList(List.of(l.split(","))));
      ifGiven(count, b::nodes);
    }
  }

  @Command(
      name = "release",
      description = "Release an allocation or some of its nodes (PMIX_ALLOC_RELEASE).",
      mixinStandardHelpOptions = true)
  static final class Release extends Base {
    @ArgGroup(exclusive = true, multiplicity = "1")
    ReleaseWhat what;

    @Option(
        names = "--lend",
        paramLabel = "T",
        description = "Lend the nodes to the scheduler for T, keeping a claim (reacquire later).")
    String lend;

    @Override
    public Integer call() {
      AllocationRequest.Builder b = AllocationRequest.release();
      what.applyTo(b);
      ifGiven(lend, b::lend);
      return request(b.build(), lend != null ? "lent" : "released");
    }
  }

  @Command(
      name = "reacquire",
      description = "Take back nodes an allocation lent (PMIX_ALLOC_REAQUIRE).",
      mixinStandardHelpOptions = true)
  static final class Reacquire extends Base {
    @Option(names = "--id", paramLabel = "A", required = true, description = "The allocation id.")
    String id;

    @Override
    public Integer call() {
      return request(AllocationRequest.reacquire().allocId(id).build(), "reacquired");
    }
  }

  @Command(
      name = "cancel",
      description = "Cancel a request still waiting for the scheduler (PMIX_ALLOC_REQ_CANCEL).",
      mixinStandardHelpOptions = true)
  static final class Cancel extends Base {
    @Option(names = "--req-id", paramLabel = "R", required = true, description = "The request id.")
    String reqId;

    @Override
    public Integer call() {
      return connected(OutputHandler.STDIO, json, this::cancel);
    }

    private int cancel(JdvmClient client) throws PmixException {
      client.allocate(AllocationRequest.cancel().reqId(reqId).build());
      Map<String, Object> m = Outcomes.success();
      m.put("reqId", reqId);
      out.println(json ? Json.write(m) : "request " + reqId + " cancelled");
      return Main.EXIT_OK;
    }
  }
}
