package org.jdvm.cli;

import static org.jdvm.cli.DvmCommand.ifGiven;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.SessionControlRequest;
import org.jdvm.pmix.App;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.Signal;
import org.jdvm.pmix.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jdvm session}: {@code PMIx_Session_control} as the scheduler (decisions.md #13–#14,
 * prrte-behavior.md §1.14). The scheduler credential is read from the DVM's directory.
 */
@Command(
    description = "Control sessions as the scheduler (PMIx_Session_control).",
    mixinStandardHelpOptions = true,
    subcommands = {SessionCommand.Instantiate.class, SessionCommand.Extend.class})
public final class SessionCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    // A command of commands does nothing alone: say so, with the usage, as a usage error (2).
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "which command? one is missing after '" + spec.qualifiedName() + "'");
  }

  /** A session id is a PMIx uint32; anything else is a usage error. */
  static void checkId(long id) {
    if (id < 0 || id > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("--id takes a session id from 0 to 4294967295, not " + id);
    }
  }

  /** What every session operation takes: the DVM, the session, the output form. */
  static final class Target extends DvmCommand {
    @Option(
        names = "--id",
        paramLabel = "N",
        required = true,
        description = "The session id (4294967295: every session you may act on).")
    long id;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    /** Sends the request as the scheduler and prints the outcome; returns the exit status. */
    int send(SessionControlRequest request, String verb) {
      checkId(id);
      return dvm.runAsScheduler(
          json,
          out,
          err,
          client -> {
            print(client.sessionControl(request), verb);
            return Main.EXIT_OK;
          });
    }

    /** e.g. {@code session 41 instantiated (allocation dvm@3.41), job dvm@4}, or its JSON. */
    private void print(AllocationResult r, String verb) {
      String nspace = r.info(PmixKeys.NSPACE);
      if (json) {
        out.println(Json.write(Outcomes.granted(r, nspace)));
        return;
      }
      out.println(
          "session "
              + (r.sessionId() != null ? r.sessionId() : id)
              + " "
              + verb
              + (r.allocId() != null ? " (allocation " + r.allocId() + ")" : "")
              + (nspace != null ? ", job " + nspace : ""));
    }
  }

  /** The jobs a preempt or restore acts on. */
  static final class Jobs {
    @Option(
        names = "--nspace",
        paramLabel = "NS",
        required = true,
        description = "A job of the session (repeatable).")
    List<String> nspaces;

    String[] array() {
      return nspaces.toArray(String[]::new);
    }
  }

  @Command(
      name = "instantiate",
      description = "Create a session on named nodes: standing, or running CMD and ending with it.",
      mixinStandardHelpOptions = true)
  static final class Instantiate implements Callable<Integer> {
    @Mixin Target target = new Target();

    @Option(
        names = "--node-list",
        paramLabel = "L",
        description = "Nodes, name[:slots], comma-separated.")
    String nodes;

    @Option(names = "--time", paramLabel = "T", description = "Time limit: [[[[M:]D:]H:]M:]S.")
    String time;

    @Option(names = "--alloc-id", paramLabel = "A", description = "The allocation id to use.")
    String allocId;

    @Option(names = "--req-id", paramLabel = "R", description = "A request id.")
    String reqId;

    @Option(
        names = "--inherit",
        paramLabel = "MODE",
        description = "none, child, default or child_default.")
    String inherit;

    @Option(
        names = "--attached",
        description = "End the session when its requester goes (PMIX_SESSION_SEP=false).")
    boolean attached;

    @Option(
        names = {"-n", "--np"},
        paramLabel = "NP",
        description = "Processes of CMD (default 1).")
    int procs = 1;

    @Parameters(
        paramLabel = "CMD",
        arity = "0..*",
        description = "A job to run in the session (after --).")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() {
      SessionControlRequest.Builder b = SessionControlRequest.instantiate(target.id);
      ifGiven(nodes, b::nodes);
      ifGiven(time, b::time);
      ifGiven(allocId, b::allocId);
      ifGiven(reqId, b::reqId);
      ifGiven(AllocCommand.inheritance(inherit), b::inheritance);
      if (attached) {
        b.separated(false);
      }
      if (!command.isEmpty()) {
        b.apps(
            List.of(
                new App(
                    command.get(0),
                    command,
                    List.of(),
                    System.getProperty("user.dir"),
                    procs,
                    List.of())));
      }
      return target.send(b.build(), "instantiated");
    }
  }

  @Command(
      name = "extend",
      description = "Add nodes or time to a session.",
      mixinStandardHelpOptions = true)
  static final class Extend implements Callable<Integer> {
    @Mixin Target target = new Target();

    @Option(names = "--node-list", paramLabel = "L", description = "Nodes to add, name[:slots].")
    String nodes;

    @Option(names = "--time", paramLabel = "T", description = "New time limit; 0 removes it.")
    String time;

    @Override
    public Integer call() {
      SessionControlRequest.Builder b = SessionControlRequest.extend(target.id);
      ifGiven(nodes, b::nodes);
      ifGiven(time, b::time);
      return target.send(b.build(), "extended");
    }
  }

  @Command(
      name = "terminate",
      description = "End a session and every job in it.",
      mixinStandardHelpOptions = true)
  int terminate(@Mixin Target t) {
    return t.send(SessionControlRequest.terminate(t.id).build(), "terminating");
  }

  @Command(
      name = "pause",
      description = "Stop every job of a session (SIGSTOP).",
      mixinStandardHelpOptions = true)
  int pause(@Mixin Target t) {
    return t.send(SessionControlRequest.pause(t.id).build(), "paused");
  }

  @Command(
      name = "resume",
      description = "Continue a paused session (SIGCONT).",
      mixinStandardHelpOptions = true)
  int resume(@Mixin Target t) {
    return t.send(SessionControlRequest.resume(t.id).build(), "resumed");
  }

  @Command(
      name = "preempt",
      description = "Suspend jobs of a session, keeping their resources.",
      mixinStandardHelpOptions = true)
  int preempt(@Mixin Target t, @Mixin Jobs jobs) {
    return t.send(
        SessionControlRequest.preempt(t.id).namespaces(jobs.array()).build(), "preempted");
  }

  @Command(
      name = "restore",
      description = "Continue preempted jobs.",
      mixinStandardHelpOptions = true)
  int restore(@Mixin Target t, @Mixin Jobs jobs) {
    return t.send(SessionControlRequest.restore(t.id).namespaces(jobs.array()).build(), "restored");
  }

  @Command(
      name = "signal",
      description = "Send a signal to every job of a session.",
      mixinStandardHelpOptions = true)
  int signal(
      @Mixin Target t,
      @Option(
              names = "--signal",
              paramLabel = "SIG",
              required = true,
              description = "A number, or a name such as TERM or USR1.")
          String signal) {
    int number;
    try {
      number = Signal.parse(signal);
    } catch (IllegalArgumentException e) {
      t.err.println("jdvm session signal: " + e.getMessage());
      return Main.EXIT_USAGE;
    }
    return t.send(SessionControlRequest.signal(t.id, number).build(), "signalled");
  }

  @Command(
      name = "separate",
      description = "Detach a session from its parent and requester (or attach it again).",
      mixinStandardHelpOptions = true)
  int separate(
      @Mixin Target t,
      @Option(names = "--attach", description = "Attach instead (PMIX_SESSION_SEP=false).")
          boolean attach) {
    return t.send(
        SessionControlRequest.separate(t.id, !attach).build(), attach ? "attached" : "separated");
  }
}
