package org.jdvm.core.journal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdvm.core.JobKind;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.Report;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Signal;

/**
 * After a restart, the reports that bring the recovered state in line with the processes that
 * actually exist (docs/journal.md "Reconciliation"), as a pure function of the state and of what
 * the agents say still runs. A process the state has running that no agent runs any more ended
 * while the controller was away: it is reported killed ({@code SIGKILL}, what the controller's
 * death or the next start's clean-up did to it), so its job ends through the core's ordinary rules
 * and its inheritance dispositions are applied exactly once. A process the state has placed but not
 * started, whose launch is not being sent again, never started: its launch failed.
 *
 * <p>A remote agent that outlived the controller says what it still runs and which of the processes
 * the state counts ended while the controller was away, with their exit code or the signal that
 * killed them: such a process is reported ended that way, once, as if its exit had arrived on time.
 * On the embedded default every agent lives in the controller's process, so nothing still runs and
 * every live job ends.
 */
public final class Reconciliation {
  private Reconciliation() {}

  /** A process an agent still runs. */
  public record Running(String namespace, int rank) {}

  /**
   * @param stillRunning the processes agents re-registered with (empty on the embedded default)
   * @param relaunching namespaces whose launch is sent again (an undispatched {@code LaunchProcs})
   */
  public static List<Report> afterRestart(
      CoreView view, Set<Running> stillRunning, Set<String> relaunching) {
    return afterRestart(view, stillRunning, Map.of(), relaunching);
  }

  /**
   * @param stillRunning the processes agents re-registered with (empty on the embedded default)
   * @param ended processes agents saw end while the controller was away, with how they ended (exit
   *     code, or the signal that killed them); one the state does not count as running is ignored
   * @param relaunching namespaces whose launch is sent again (an undispatched {@code LaunchProcs})
   */
  public static List<Report> afterRestart(
      CoreView view,
      Set<Running> stillRunning,
      Map<Running, ProcEnd> ended,
      Set<String> relaunching) {
    List<Report> out = new ArrayList<>();
    for (JobView job : view.jobs()) {
      if (job.kind() != JobKind.APPLICATION || job.state() == JobView.State.TERMINATED) {
        continue;
      }
      Map<String, List<Integer>> neverStarted = new LinkedHashMap<>();
      for (ProcView p : job.procs()) {
        Running r = new Running(job.namespace(), p.rank());
        if (p.state() == ProcView.State.RUNNING && ended.containsKey(r)) {
          ProcEnd end = ended.get(r);
          out.add(new Report.ProcExited(job.namespace(), p.rank(), end.exitCode(), end.signal()));
        } else if (p.state() == ProcView.State.RUNNING && !stillRunning.contains(r)) {
          out.add(new Report.ProcExited(job.namespace(), p.rank(), 0, Signal.KILL.number()));
        } else if (p.state() == ProcView.State.PLACED && !relaunching.contains(job.namespace())) {
          neverStarted.computeIfAbsent(p.node(), n -> new ArrayList<>()).add(p.rank());
        }
      }
      neverStarted.forEach(
          (node, ranks) ->
              out.add(
                  new Report.LaunchFailed(
                      node, job.namespace(), ranks, PmixStatus.ERR_JOB_FAILED_TO_LAUNCH)));
    }
    return out;
  }
}
