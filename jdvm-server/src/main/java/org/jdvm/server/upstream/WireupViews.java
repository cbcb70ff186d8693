package org.jdvm.server.upstream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdvm.core.JobKind;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.ProcView;
import org.jdvm.endpoint.serve.Upstream;
import org.jdvm.endpoint.wireup.Member;
import org.jdvm.pmix.Proc;

/**
 * What wire-up state needs from the core's views (docs/wireup.md §c.4–§c.5): where a process runs
 * and in which session, and which ranks of a job have ended. Runs on the controller thread; returns
 * copies.
 */
final class WireupViews {
  private WireupViews() {}

  /** A live launched process (its node and job's session), or a tool (no node). */
  static Optional<Member> member(CoreView v, Proc proc) {
    JobView job = v.job(proc.nspace()).orElse(null);
    if (job == null || job.state() == JobView.State.TERMINATED) {
      return Optional.empty();
    }
    if (job.kind() != JobKind.APPLICATION) {
      return Optional.of(new Member(proc, null, job.primarySessionId()));
    }
    for (ProcView p : job.procs()) {
      if (p.rank() == proc.rank()) {
        return Optional.of(new Member(proc, p.node(), job.primarySessionId()));
      }
    }
    return Optional.empty();
  }

  /** The application jobs among {@code nspaces}: their size and ended ranks. */
  static Map<String, Upstream.Ranks> ranks(CoreView v, List<String> nspaces) {
    Map<String, Upstream.Ranks> out = new LinkedHashMap<>();
    for (String ns : nspaces) {
      JobView job = v.job(ns).orElse(null);
      if (job == null || job.kind() != JobKind.APPLICATION) {
        continue;
      }
      List<Integer> ended = new ArrayList<>();
      for (ProcView p : job.procs()) {
        if (p.state() == ProcView.State.ENDED || job.state() == JobView.State.TERMINATED) {
          ended.add(p.rank());
        }
      }
      out.put(ns, new Upstream.Ranks(ns, job.procs().size(), ended));
    }
    return out;
  }
}
