package org.jdvm.core.lifecycle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Change.ProcsEnded;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.job.Aborts;
import org.jdvm.core.state.Job;
import org.jdvm.core.state.Node;
import org.jdvm.core.state.ProcRecord;
import org.jdvm.core.state.Txn;
import org.jdvm.pmix.PmixStatus;

/**
 * Nodes leaving the DVM take their processes with them (spec §8.2.1.9.4: when nodes physically
 * depart, the existing shrink behaviour). The core counts those processes as ended at once, so
 * slots and job lifetimes stay exact; a later exit report for one of them is stale. Processes
 * elsewhere keep running: a job loses only what ran on the departing nodes, unless it was still
 * launching, in which case its launch has failed.
 */
public final class NodeDeparture {
  private NodeDeparture() {}

  /** Ends every live process on these nodes. */
  public static void procsEnd(List<Node> nodes, Txn txn) {
    Map<Job, List<Integer>> byJob = new LinkedHashMap<>();
    for (Node node : nodes) {
      for (ProcRecord proc : node.residents()) {
        byJob.computeIfAbsent(proc.job(), j -> new ArrayList<>()).add(proc.rank());
      }
    }
    for (Map.Entry<Job, List<Integer>> e : byJob.entrySet()) {
      Job job = e.getKey();
      txn.change(new ProcsEnded(job.namespace(), e.getValue(), ProcEnd.DEPARTED));
      if (job.state() == Job.State.LAUNCHING) {
        Aborts.abort(job, PmixStatus.ERR_JOB_FAILED_TO_LAUNCH, txn);
      }
      if (job.liveProcs() == 0) {
        txn.terminateLater(job);
      }
    }
  }

  /** The names of these nodes, in order. */
  public static List<String> names(List<Node> nodes) {
    List<String> names = new ArrayList<>(nodes.size());
    for (Node n : nodes) {
      names.add(n.name());
    }
    return names;
  }
}
