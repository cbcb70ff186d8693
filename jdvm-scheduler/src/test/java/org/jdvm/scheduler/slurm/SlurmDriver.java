package org.jdvm.scheduler.slurm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jdvm.scheduler.SchedulerEvent;

/**
 * Carries out {@link SlurmScheduler}'s effects as its port does, without a Slurm, a thread or a
 * clock: queries are answered by {@link #slurm}, every command is recorded, salloc starts are kept
 * by ask id, events and log lines collected in order. Time is whatever the test says.
 */
final class SlurmDriver {
  static final long S = 1_000_000_000L;

  /** The wall clock at mono 0: EndTime {@code W + k} seconds is mono {@code k} seconds. */
  static final long WALL0_MS = 4_000_000_000_000L;

  final SlurmScheduler s;
  final List<List<String>> ran = new ArrayList<>();
  final List<SchedulerEvent> events = new ArrayList<>();
  final List<String> logs = new ArrayList<>();
  final Map<String, SallocAsk> sallocs = new LinkedHashMap<>();
  final List<SallocAsk> ended = new ArrayList<>();

  /** Slurm's answer to a query; by default every command succeeds and prints nothing. */
  Function<List<String>, SlurmCommands.Result> slurm = argv -> ok("");

  /** Whether the next salloc fails to start. */
  String sallocFails;

  long nowNs;

  SlurmDriver(String tag) {
    s = new SlurmScheduler(null, tag);
  }

  SlurmDriver() {
    this("abc");
  }

  static SlurmCommands.Result ok(String out) {
    return new SlurmCommands.Result(0, out, "");
  }

  static SlurmCommands.Result failed(String err) {
    return new SlurmCommands.Result(1, "", err);
  }

  /** The epoch second at which mono time {@code seconds} falls. */
  static long endAt(long seconds) {
    return WALL0_MS / 1000 + seconds;
  }

  /** {@code scontrol show job} of a running job on {@code nodes} with 4 CPUs each. */
  static String shown(String job, long endSeconds, String... nodes) {
    StringBuilder b =
        new StringBuilder("JobId=" + job + " JobState=RUNNING NodeList=" + String.join(",", nodes));
    b.append(" EndTime=").append(endAt(endSeconds)).append(" TimeLimit=00:05:00");
    for (String n : nodes) {
      b.append(" Nodes=").append(n).append(" CPU_IDs=0-3 Mem=0");
    }
    return b.toString();
  }

  /** An {@code squeue} line of {@link SlurmCli#SQUEUE_FORMAT}. */
  static String row(String job, String state, long endSeconds, String nodes) {
    return job + "|" + state + "|" + endAt(endSeconds) + "|5:00|" + nodes;
  }

  SlurmScheduler.Time now() {
    return new SlurmScheduler.Time(nowNs, WALL0_MS + nowNs / 1_000_000);
  }

  /** Carries out effects as the port does; returns the events among them. */
  List<SchedulerEvent> run(List<SlurmEffect> effects) {
    int before = events.size();
    perform(effects);
    return List.copyOf(events.subList(before, events.size()));
  }

  private void perform(List<SlurmEffect> effects) {
    for (SlurmEffect e : effects) {
      switch (e) {
        case SlurmEffect.Emit x -> events.add(x.event());
        case SlurmEffect.Run x -> ran.add(x.argv());
        case SlurmEffect.Query q -> {
          ran.add(q.argv());
          perform(s.answer(q, slurm.apply(q.argv()), now()));
        }
        case SlurmEffect.StartSalloc x -> {
          ran.add(x.argv());
          if (sallocFails != null) {
            String why = sallocFails;
            sallocFails = null;
            perform(s.sallocNotStarted(x.salloc(), why));
          } else {
            sallocs.put(x.salloc().ask.askId(), x.salloc());
          }
        }
        case SlurmEffect.EndSalloc x -> ended.add(x.salloc());
        case SlurmEffect.Log x -> logs.add(x.level() + " " + x.message());
      }
    }
  }

  /** The commands run, by name ({@code scancel}, {@code salloc}, ...). */
  List<List<String>> ran(String command) {
    return ran.stream().filter(a -> a.getFirst().equals(command)).toList();
  }

  List<SchedulerEvent> line(String askId, String line) {
    return run(s.sallocLine(sallocs.get(askId), line));
  }

  List<SchedulerEvent> exit(String askId, int status) {
    return run(s.sallocExit(sallocs.get(askId), status));
  }

  /** A poll: squeue asked about the jobs the scheduler names, answered by {@link #slurm}. */
  List<SchedulerEvent> poll() {
    List<String> ids = s.pollJobs();
    if (ids == null) {
      return List.of();
    }
    List<String> argv = SlurmCli.squeue(ids);
    ran.add(argv);
    return run(s.polled(slurm.apply(argv), now()));
  }

  List<SchedulerEvent> tick() {
    return run(s.tick(now()));
  }
}
