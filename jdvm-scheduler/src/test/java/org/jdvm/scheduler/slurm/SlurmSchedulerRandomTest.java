package org.jdvm.scheduler.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jdvm.scheduler.slurm.SlurmDriver.S;
import static org.jdvm.scheduler.slurm.SlurmDriver.ok;
import static org.jdvm.scheduler.slurm.SlurmDriver.row;
import static org.jdvm.scheduler.slurm.SlurmDriver.shown;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jdvm.scheduler.Ask;
import org.jdvm.scheduler.SchedulerEvent;
import org.junit.jupiter.api.Test;

/**
 * {@link SlurmScheduler} under random inputs from seeded generators, against a model of Slurm that
 * hands out six nodes: every ask is answered at most once, no node is in two allocations, the
 * port's map of nodes to jobs is the allocations', and after close no job Slurm granted is left
 * uncancelled. A failing seed is printed; run it alone by fixing {@code SEEDS}.
 */
class SlurmSchedulerRandomTest {
  private static final int SEEDS = 300;
  private static final int STEPS = 120;
  private static final List<String> NODES =
      List.of("node1", "node2", "node3", "node4", "node5", "node6");

  /** Slurm as the test sees it: its live jobs and their nodes. */
  private static final class Model {
    final Map<String, List<String>> jobs = new LinkedHashMap<>();
    final Set<String> granted = new HashSet<>();

    /** salloc prints its grant once. */
    final Set<SallocAsk> printedGrant = new HashSet<>();

    int nextJob = 100;
    int seen;

    Set<String> busy() {
      Set<String> b = new HashSet<>();
      jobs.values().forEach(b::addAll);
      return b;
    }

    /** Slurm carries out the commands the scheduler ran since the last look. */
    void follow(SlurmDriver d) {
      for (; seen < d.ran.size(); seen++) {
        List<String> argv = d.ran.get(seen);
        if (argv.getFirst().equals("scancel")) {
          argv.subList(1, argv.size()).forEach(jobs::remove);
        } else if (argv.size() == 4 && argv.get(3).startsWith("NodeList=")) {
          String job = argv.get(2).substring("JobId=".length());
          jobs.put(job, List.of(argv.get(3).substring("NodeList=".length()).split(",")));
        }
      }
    }
  }

  /** How many events of each kind the seeds produced: the generators reach every answer. */
  private final Map<Class<?>, Integer> seen = new HashMap<>();

  @Test
  void randomInputsKeepTheInvariants() {
    for (long seed = 1; seed <= SEEDS; seed++) {
      try {
        run(new Random(seed));
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
    assertThat(seen)
        .as("events the seeds produced")
        .containsKeys(
            SchedulerEvent.Granted.class,
            SchedulerEvent.Refused.class,
            SchedulerEvent.Queued.class,
            SchedulerEvent.Cancelled.class,
            SchedulerEvent.Warning.class,
            SchedulerEvent.Reclaimed.class);
    assertThat(seen.get(SchedulerEvent.Granted.class)).isGreaterThan(SEEDS);
  }

  private void run(Random rnd) {
    SlurmDriver d = new SlurmDriver();
    Model slurm = new Model();
    Map<String, Integer> answers = new HashMap<>();
    List<String> asks = new ArrayList<>();
    int nextAsk = 1;
    for (int step = 0; step < STEPS; step++) {
      List<SchedulerEvent> out =
          switch (rnd.nextInt(9)) {
            case 0, 1 -> {
              String id = Integer.toString(nextAsk++);
              asks.add(id);
              yield d.run(d.s.ask(ask(rnd, id, d), d.now()));
            }
            case 2 -> pendingLine(rnd, d, slurm);
            case 3 -> grantLine(rnd, d, slurm);
            case 4 -> exit(rnd, d);
            case 5 -> asks.isEmpty() ? List.of() : d.run(d.s.cancel(pick(rnd, asks)));
            case 6 -> release(rnd, d);
            case 7 -> {
              d.nowNs += rnd.nextInt(40) * S;
              yield d.tick();
            }
            default -> poll(rnd, d, slurm);
          };
      slurm.follow(d);
      for (SchedulerEvent e : out) {
        seen.merge(e.getClass(), 1, Integer::sum);
        if (e instanceof SchedulerEvent.Granted
            || e instanceof SchedulerEvent.Refused
            || e instanceof SchedulerEvent.Cancelled) {
          assertThat(answers.merge(SchedulerEvent.askIdOf(e), 1, Integer::sum))
              .as("answers to ask %s", SchedulerEvent.askIdOf(e))
              .isEqualTo(1);
        }
      }
      checkHeld(d);
    }
    d.run(d.s.close());
    slurm.follow(d);
    assertThat(slurm.jobs.keySet()).as("jobs left in Slurm after close").isEmpty();
  }

  private static Ask ask(Random rnd, String id, SlurmDriver d) {
    List<SlurmRecovery.Held> held = d.s.save().allocations();
    if (!held.isEmpty() && rnd.nextInt(3) == 0) {
      String alloc = held.get(rnd.nextInt(held.size())).id();
      Long seconds = rnd.nextBoolean() ? null : 60L;
      return new Ask(id, Ask.Kind.EXTEND, alloc, rnd.nextInt(2), List.of(), seconds, null, false);
    }
    Long limit = rnd.nextBoolean() ? null : 60L + rnd.nextInt(120);
    Long warn = limit == null || rnd.nextBoolean() ? null : 10L;
    return new Ask(
        id, Ask.Kind.NEW, null, 1 + rnd.nextInt(2), List.of(), limit, warn, rnd.nextBoolean());
  }

  private static List<SchedulerEvent> pendingLine(Random rnd, SlurmDriver d, Model slurm) {
    if (d.sallocs.isEmpty()) {
      return List.of();
    }
    SallocAsk p = pick(rnd, List.copyOf(d.sallocs.values()));
    if (p.jobId != null) {
      return List.of();
    }
    String job = Integer.toString(slurm.nextJob++);
    slurm.jobs.put(job, List.of());
    return d.run(d.s.sallocLine(p, "salloc: Pending job allocation " + job));
  }

  private static List<SchedulerEvent> grantLine(Random rnd, SlurmDriver d, Model slurm) {
    if (d.sallocs.isEmpty()) {
      return List.of();
    }
    SallocAsk p = pick(rnd, List.copyOf(d.sallocs.values()));
    if (!slurm.printedGrant.add(p)) {
      return List.of();
    }
    List<String> free = new ArrayList<>(NODES);
    free.removeAll(slurm.busy());
    int want = Math.max(1, p.ask.count());
    if (free.size() < want || (p.jobId != null && !slurm.jobs.containsKey(p.jobId))) {
      slurm.printedGrant.remove(p);
      return List.of();
    }
    String job = p.jobId != null ? p.jobId : Integer.toString(slurm.nextJob++);
    List<String> nodes = free.subList(0, want);
    slurm.jobs.put(job, List.copyOf(nodes));
    slurm.granted.add(job);
    long end = d.nowNs / S + 60 + rnd.nextInt(200);
    d.slurm = argv -> ok(shown(job, end, nodes.toArray(String[]::new)));
    return d.run(d.s.sallocLine(p, "salloc: Granted job allocation " + job));
  }

  private static List<SchedulerEvent> exit(Random rnd, SlurmDriver d) {
    if (d.sallocs.isEmpty()) {
      return List.of();
    }
    String id = pick(rnd, List.copyOf(d.sallocs.keySet()));
    SallocAsk p = d.sallocs.remove(id);
    return d.run(d.s.sallocExit(p, rnd.nextInt(2)));
  }

  private static List<SchedulerEvent> release(Random rnd, SlurmDriver d) {
    List<SlurmRecovery.Held> held = d.s.save().allocations();
    if (held.isEmpty()) {
      return List.of();
    }
    SlurmRecovery.Held a = held.get(rnd.nextInt(held.size()));
    if (rnd.nextInt(3) == 0) {
      return d.run(d.s.end(a.id()));
    }
    List<String> nodes = new ArrayList<>();
    a.jobs().forEach(j -> nodes.addAll(j.nodes()));
    return d.run(d.s.release(a.id(), List.of(pick(rnd, nodes))));
  }

  /** A poll in which Slurm may have ended a job from outside (an admin's scancel). */
  private static List<SchedulerEvent> poll(Random rnd, SlurmDriver d, Model slurm) {
    if (!slurm.jobs.isEmpty() && rnd.nextInt(4) == 0) {
      slurm.jobs.remove(pick(rnd, List.copyOf(slurm.jobs.keySet())));
    }
    StringBuilder out = new StringBuilder();
    slurm.jobs.forEach(
        (job, nodes) ->
            out.append(
                    row(
                        job,
                        nodes.isEmpty() ? "PENDING" : "RUNNING",
                        d.nowNs / S + 500,
                        String.join(",", nodes)))
                .append('\n'));
    d.slurm = argv -> ok(out.toString());
    return d.poll();
  }

  private static void checkHeld(SlurmDriver d) {
    Set<String> seen = new HashSet<>();
    for (SlurmRecovery.Held a : d.s.save().allocations()) {
      assertThat(a.jobs()).as("an allocation holds a job").isNotEmpty();
      for (SlurmRecovery.Job j : a.jobs()) {
        for (String n : j.nodes()) {
          assertThat(seen.add(n)).as("node %s in one allocation", n).isTrue();
          assertThat(d.s.jobOf(n)).as("the job of %s", n).contains(j.id());
        }
      }
    }
    for (String n : NODES) {
      if (!seen.contains(n)) {
        assertThat(d.s.jobOf(n)).as("no job holds %s", n).isEmpty();
      }
    }
  }

  private static <T> T pick(Random rnd, List<T> from) {
    return from.get(rnd.nextInt(from.size()));
  }
}
