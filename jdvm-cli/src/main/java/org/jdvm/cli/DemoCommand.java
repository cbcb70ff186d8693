package org.jdvm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jdvm.client.AllocationRequest;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.Contact;
import org.jdvm.client.Event;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.Job;
import org.jdvm.client.JobEnd;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.SpawnRequest;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.assembly.DvmServer;
import org.jdvm.server.home.DvmLogging;
import picocli.CommandLine.Command;

/**
 * {@code jdvm demo}, the README's main job: an embedded DVM in a scratch directory, and a short
 * workflow with real processes that shows reservation, spawn targeting and isolation, each of the
 * four inheritance dispositions, and the timeout warning — narrated from the DVM's own operator
 * feed as things happen. It checks what it shows: if the DVM does something else, the demo says so
 * and exits 1.
 */
@Command(
    mixinStandardHelpOptions = true,
    description = "A guided tour: reservations, targeting and inheritance with real processes.")
public final class DemoCommand implements Callable<Integer> {
  private final PrintStream out = System.out;
  private final LinkedBlockingQueue<Map<String, Object>> feed = new LinkedBlockingQueue<>();
  private long startNs;
  private Contact contact;

  /** The demo found the DVM doing something it did not expect. */
  private static final class Unexpected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unexpected(String what) {
      super(what);
    }
  }

  @Override
  public Integer call() throws Exception {
    Path home = Files.createTempDirectory("jdvm-demo-");
    DvmLogging.configure(home.resolve("dvm.log"), false);
    startNs = System.nanoTime();
    title("jdvm demo: reservations, targeting and inheritance, with real processes");
    say("starting an embedded DVM in " + home);
    say("  4 start-up nodes (node0..node3, 2 slots each); the embedded scheduler holds 8 more");
    try (DvmServer server =
        DvmServer.start(DvmConfig.embedded("demo", 4, 2, 8, home).withShrinkGrace(500))) {
      contact = Contact.fromFile(home.resolve(Contact.CONTACT_FILE));
      try (JdvmClient watcher = tool(OutputHandler.DISCARD)) {
        watcher.followChanges(this::observe);
        reservationAndTargeting();
        dispositions();
        timeoutWarning();
      }
      title("done");
      say("stopping the DVM: every session ends, scheduler nodes go back, every process ends");
    } catch (Unexpected e) {
      out.println();
      out.println("jdvm demo: unexpected: " + e.getMessage());
      return Main.EXIT_FAILURE;
    } finally {
      deleteQuietly(home);
    }
    return Main.EXIT_OK;
  }

  // ---- the story -----------------------------------------------------------------------------

  private void reservationAndTargeting() throws PmixException {
    title("1. A reservation (PMIX_ALLOC_NEW) and spawn targeting (PMIX_SPAWN_TARGET)");
    JobOutput output = new JobOutput();
    try (JdvmClient orchestrator = tool(output)) {
      say("a workflow orchestrator connects as a tool: " + orchestrator.self().nspace());
      say("it asks for 2 nodes, inheritance CHILD");
      AllocationResult r =
          orchestrator.allocate(
              AllocationRequest.newAllocation()
                  .nodes(2)
                  .inheritance(AllocInheritance.CHILD)
                  .build());
      awaitChange("NodesJoined", 5);
      say("→ allocation " + r.allocId() + ": " + String.join(",", r.nodes()) + ", reserved to it");

      say("a job with no target runs in the default session and cannot see reserved nodes:");
      List<String> plain = run(orchestrator, output, SpawnRequest.of("sh", "-c", WHERE).procs(4));
      expect(plain.stream().noneMatch(r.nodes()::contains), "an untargeted job ran on " + plain);

      say("a job that targets " + r.allocId() + " runs on its nodes, and joins its owners:");
      List<String> inside =
          run(
              orchestrator,
              output,
              SpawnRequest.of("sh", "-c", WHERE).procs(2).target(r.allocId()));
      expect(r.nodes().containsAll(inside), "a targeted job ran on " + inside);

      say("targeting it and the default session together gives the union:");
      run(
          orchestrator,
          output,
          SpawnRequest.of("sh", "-c", WHERE).procs(4).target(r.allocId(), "").mapBy("node"));

      intruder(r.allocId());
      say("who owns what? jdvm tree:");
      try (JdvmClient c = tool(OutputHandler.DISCARD)) {
        for (String line : TreeCommand.lines(Explaining.maps(Json.parse(c.treeJson())))) {
          say("    " + line);
        }
      }
      say("the orchestrator leaves: with CHILD and no job still running, the reservation goes");
    }
    awaitChange("AllocationEnded", 10);
  }

  /** Another tool is refused the reservation, and jdvm explain says which rule refused it. */
  private void intruder(String allocId) throws PmixException {
    try (JdvmClient other = tool(OutputHandler.DISCARD)) {
      say("another tool, " + other.self().nspace() + ", tries to run a job in " + allocId + ":");
      try {
        other.spawn(SpawnRequest.of("true").target(allocId).build());
        throw new Unexpected("a tool that owns nothing spawned into " + allocId);
      } catch (PmixException e) {
        expect(e.status() == PmixStatus.ERR_NO_PERMISSIONS, "refused " + e.getMessage());
        say("→ refused: " + PmixStatus.name(e.status()));
      }
      say("why? jdvm explain --target " + allocId + " (asked as " + other.self().nspace() + "):");
      why(other, SpawnRequest.of("true").target(allocId).build().infos(), null);
    }
  }

  /** {@code jdvm explain}'s answer for this client, indented into the story. */
  private void why(JdvmClient c, List<org.jdvm.pmix.Info> infos, String node) throws PmixException {
    List<org.jdvm.pmix.Info> q = new ArrayList<>(infos);
    if (node != null) {
      q.add(org.jdvm.pmix.Info.of(JdvmProtocol.EXPLAIN_NODE, org.jdvm.pmix.Value.string(node)));
    }
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    @SuppressWarnings("unchecked")
    Map<String, Object> e = (Map<String, Object>) Json.parse(c.explainJson(q));
    Explaining.print(e, new PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
    bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines().forEach(l -> say("    " + l));
  }

  private void dispositions() throws PmixException {
    title("2. What happens when the owner ends (PMIX_ALLOC_INHERITANCE)");
    disposition(
        AllocInheritance.NONE,
        "sleep 30",
        "NONE: released at once; the node leaves the DVM and the job still on it ends with it");
    disposition(
        AllocInheritance.CHILD,
        "sleep 1",
        "CHILD: outlives its owner until the last derived child ends, then released");
    disposition(
        AllocInheritance.DEFAULT,
        "sleep 1",
        "DEFAULT (also when absent): the nodes stay in the DVM, unreserved, in the default session");
    disposition(
        AllocInheritance.CHILD_DEFAULT,
        "sleep 1",
        "CHILD_DEFAULT: after the last derived child ends, unreserved in the default session");
  }

  private void disposition(AllocInheritance mode, String job, String explanation)
      throws PmixException {
    out.println();
    say(explanation);
    JobOutput output = new JobOutput();
    JdvmClient owner = tool(output);
    AllocationResult r =
        owner.allocate(AllocationRequest.newAllocation().nodes(1).inheritance(mode).build());
    Job j = owner.spawn(SpawnRequest.of("sh", "-c", job).target(r.allocId()).build());
    awaitChange("OwnerAdded", 5);
    say(
        "  "
            + owner.self().nspace()
            + " holds "
            + r.allocId()
            + " ("
            + r.nodes().get(0)
            + ", "
            + mode
            + ") and runs '"
            + job
            + "' there as "
            + j.nspace()
            + "; now it leaves");
    owner.close();
    Map<String, Object> end = awaitChange("AllocationEnded", 15);
    String expected = mode.returnsToScheduler() ? "RELEASED" : "UNRESERVED";
    expect(expected.equals(end.get("how")), mode + " ended " + end.get("how"));
    if (!mode.returnsToScheduler()) {
      showNode(r.nodes().get(0));
    }
    if (mode == AllocInheritance.DEFAULT) {
      try (JdvmClient c = tool(OutputHandler.DISCARD)) {
        say("  why may any job use it now? jdvm explain --node " + r.nodes().get(0) + ":");
        why(c, List.of(), r.nodes().get(0));
      }
    }
  }

  private void timeoutWarning() throws PmixException {
    title("3. The timeout warning (PMIX_ALLOC_WARN_TIMEOUT → PMIX_ALLOC_TIMEOUT_WARNING)");
    LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    try (JdvmClient requester = tool(OutputHandler.DISCARD)) {
      requester.onEvents(
          events::add, PmixStatus.ALLOC_TIMEOUT_WARNING, PmixStatus.EVENT_SESSION_END);
      AllocationResult r =
          requester.allocate(
              AllocationRequest.newAllocation().nodes(1).timeSeconds(3).warnTimeout(2).build());
      say(
          requester.self().nspace()
              + " holds "
              + r.allocId()
              + " for 3 s and asked to be warned 2 s"
              + " before it expires; only the requester hears it");
      Event warning = poll(events, 10);
      expect(warning.status() == PmixStatus.ALLOC_TIMEOUT_WARNING, "no warning came");
      say(heard(warning));
      say(heard(poll(events, 10)));
      awaitChange("AllocationEnded", 5);
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** One node as {@code jdvm nodes} lists it. */
  private void showNode(String name) throws PmixException {
    try (JdvmClient c = tool(OutputHandler.DISCARD)) {
      if (Json.parse(c.nodesJson()) instanceof List<?> nodes) {
        for (Object o : nodes) {
          if (o instanceof Map<?, ?> n && name.equals(n.get("name"))) {
            boolean busy = n.get("slotsInUse") instanceof Number u && u.intValue() > 0;
            say(
                "  "
                    + name
                    + " is still in the DVM, now in the "
                    + (n.get("allocId") == null
                        ? "default session"
                        : "allocation " + n.get("allocId"))
                    + (busy
                        ? "; the job on it keeps running (nothing is killed)"
                        : ", free for any job"));
          }
        }
      }
    }
  }

  /** Each process prints its rank and node. */
  private static final String WHERE = "echo $PMIX_RANK $PMIX_HOSTNAME";

  /** Runs a job, waits for it, prints where each rank ran, returns the nodes in rank order. */
  private List<String> run(JdvmClient client, JobOutput output, SpawnRequest.Builder spawn)
      throws PmixException {
    Job job = client.spawn(spawn.forwardOutput(true).notifyCompletion(true).build());
    JobEnd end = job.awaitEnd();
    expect(end.exitCode() == 0, job.nspace() + " exited " + end.exitCode());
    List<String> nodes = output.nodesOf(job.nspace());
    say("  " + job.nspace() + ": " + describe(nodes));
    return nodes;
  }

  private static String describe(List<String> nodes) {
    List<String> parts = new ArrayList<>();
    for (int rank = 0; rank < nodes.size(); rank++) {
      parts.add("rank " + rank + " on " + nodes.get(rank));
    }
    return String.join(", ", parts);
  }

  /** Collects "rank node" lines per job. */
  private static final class JobOutput implements OutputHandler {
    private final Map<String, StringBuilder> byJob = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void output(org.jdvm.pmix.Proc source, boolean stderr, byte[] bytes) {
      byJob.computeIfAbsent(source.nspace(), k -> new StringBuilder()).append(new String(bytes));
    }

    List<String> nodesOf(String nspace) {
      String[] lines = byJob.getOrDefault(nspace, new StringBuilder()).toString().split("\n");
      String[] nodes = new String[lines.length];
      for (String l : lines) {
        String[] f = l.trim().split(" ");
        if (f.length == 2) {
          nodes[Integer.parseInt(f[0])] = f[1];
        }
      }
      return List.of(nodes);
    }
  }

  private JdvmClient tool(OutputHandler output) throws PmixException {
    return JdvmClient.connector()
        .contact(contact)
        .role(org.jdvm.client.Role.TOOL)
        .output(output)
        .connect();
  }

  /** The operator feed: every change the DVM makes. The story prints the ones that matter. */
  private void observe(Event e) {
    String json = e.info(JdvmProtocol.CHANGE_JSON);
    if (json != null && Json.parse(json) instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> change = (Map<String, Object>) m;
      String line = narrate(change);
      if (line != null) {
        say("    · " + line);
      }
      feed.add(change);
    }
  }

  /** An event the requester heard: the timeout warning, or its allocation's end. */
  private static String heard(Event e) {
    String allocId = e.info(PmixKeys.ALLOC_ID);
    return "→ "
        + PmixStatus.name(e.status())
        + (e.status() == PmixStatus.ALLOC_TIMEOUT_WARNING
            ? " for "
                + allocId
                + ": "
                + e.info(PmixKeys.TIME_REMAINING)
                + " s remaining (the requester could EXTEND now)"
            : ": "
                + allocId
                + " "
                + e.info(JdvmProtocol.ALLOCATION_END)
                + " by the scheduler at its deadline");
  }

  private static String narrate(Map<String, Object> c) {
    return switch (String.valueOf(c.get("change"))) {
      case "NodesAdded" ->
          "the scheduler grants "
              + names(c.get("nodes"))
              + ": "
              + (leave(c.get("nodes")).equals("leaves") ? "it joins" : "they join")
              + " the DVM";
      case "NodesJoined" -> names(c.get("nodes")) + " reserved to allocation " + c.get("allocId");
      case "OwnerAdded" -> c.get("namespace") + " joins the owners of " + c.get("allocId");
      case "NodesRemoved" ->
          names(c.get("nodes")) + " " + leave(c.get("nodes")) + " the DVM (back to the scheduler)";
      case "NodesLeft" ->
          names(c.get("nodes")) + " " + leave(c.get("nodes")) + " allocation " + c.get("allocId");
      case "AllocationEnded" -> "allocation " + c.get("allocId") + " ends: " + c.get("how");
      case "JobTerminated" ->
          "job "
              + c.get("namespace")
              + " ends with "
              + PmixStatus.name(((Number) c.get("status")).intValue());
      default -> null;
    };
  }

  private static String names(Object nodes) {
    if (nodes instanceof List<?> list) {
      return String.join(
          ",",
          list.stream()
              .map(n -> n instanceof Map<?, ?> m ? m.get("name") : n)
              .map(String::valueOf)
              .toList());
    }
    return String.valueOf(nodes);
  }

  private static String leave(Object nodes) {
    return nodes instanceof List<?> list && list.size() == 1 ? "leaves" : "leave";
  }

  /** Waits for a change of this kind (bounded); the story only goes on once the DVM acted. */
  private Map<String, Object> awaitChange(String kind, int seconds) {
    return pollUntil(feed, c -> kind.equals(c.get("change")), seconds, "a " + kind);
  }

  private static Event poll(LinkedBlockingQueue<Event> q, int seconds) {
    return pollUntil(q, e -> true, seconds, "an event");
  }

  private static <T> T pollUntil(
      LinkedBlockingQueue<T> q, Predicate<T> p, int seconds, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    try {
      while (true) {
        T t = q.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (t == null) {
          throw new Unexpected("waited " + seconds + " s for " + what);
        }
        if (p.test(t)) {
          return t;
        }
      }
    } catch (InterruptedException e) {
      throw new Unexpected("interrupted while waiting for " + what);
    }
  }

  private static void expect(boolean condition, String otherwise) {
    if (!condition) {
      throw new Unexpected(otherwise);
    }
  }

  private void title(String t) {
    out.println();
    out.println(t);
  }

  private synchronized void say(String line) {
    long ms = (System.nanoTime() - startNs) / 1_000_000;
    out.printf("[%3d.%01ds] %s%n", ms / 1000, (ms % 1000) / 100, line);
    out.flush();
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // A scratch directory under /tmp; nothing depends on it.
    }
  }
}
