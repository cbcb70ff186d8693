package org.jdvm.core.state;

import java.util.ArrayList;
import java.util.List;

/**
 * A canonical rendering of the whole state, in table order (which is itself state: it decides the
 * order the mapper fills nodes in). Two states are equal exactly when their digests are; tests use
 * it to show that a refused command changed nothing and that replaying the changes rebuilds the
 * state.
 */
public final class StateDigest {
  private StateDigest() {}

  public static String of(State state) {
    StringBuilder out = new StringBuilder(4096);
    JobTable jobs = state.jobs();
    out.append("dvm next=")
        .append(jobs.nextNamespace())
        .append(" nextAsk=")
        .append(state.asks().nextAskId())
        .append(" lastSession=")
        .append(state.allocations().lastMintedSessionId())
        .append(" terminations=")
        .append(state.terminationSeq)
        .append(" tornDown=")
        .append(state.tornDown)
        .append('\n');
    for (Node n : state.nodes().all()) {
      node(n, out);
    }
    pool(state.nodes().defaultPool(), out);
    for (Allocation a : state.allocations().all()) {
      allocation(a, out);
    }
    for (Job j : jobs.all()) {
      job(j, out);
    }
    for (Ask a : state.asks().all()) {
      out.append("ask ")
          .append(a.askId())
          .append(' ')
          .append(a.kind())
          .append(" reply=")
          .append(a.replyTo())
          .append(" by=")
          .append(a.requester())
          .append(" queued=")
          .append(a.queued())
          .append(" claimed=")
          .append(a.claimed())
          .append(' ')
          .append(a.terms())
          .append('\n');
    }
    out.append("deadline ").append(names(state.allocations().earliestDeadline())).append('\n');
    return out.toString();
  }

  private static void node(Node n, StringBuilder out) {
    out.append("node ")
        .append(n.name())
        .append(" slots=")
        .append(n.slots())
        .append(" used=")
        .append(n.slotsInUse())
        .append(' ')
        .append(n.origin())
        .append(" alloc=")
        .append(n.allocId())
        .append(" session=")
        .append(n.sessionId())
        .append(" claim=")
        .append(n.claimedBy())
        .append(" join=")
        .append(n.joinSeq())
        .append(" on=[");
    for (ProcRecord p : n.residents()) {
      out.append(p.job().namespace()).append('.').append(p.rank()).append(' ');
    }
    out.append("]\n");
  }

  private static void pool(Pool p, StringBuilder out) {
    out.append("pool ")
        .append(p.sessionId())
        .append(" free=")
        .append(p.freeSlots())
        .append(" nodes=")
        .append(p.nodes())
        .append(" room=")
        .append(p.withFreeSlots())
        .append('\n');
  }

  private static void allocation(Allocation a, StringBuilder out) {
    out.append("alloc ")
        .append(a.allocId())
        .append(" session=")
        .append(a.sessionId())
        .append(" req=")
        .append(a.allocReqId())
        .append(" owner=")
        .append(a.owner())
        .append(" owners=")
        .append(a.owners())
        .append(" requester=")
        .append(a.requester())
        .append(" inh=")
        .append(a.inheritance())
        .append(" reserved=")
        .append(a.reserved())
        .append(" sched=")
        .append(a.schedulerSession())
        .append('/')
        .append(a.autoComplete())
        .append(" schedId=")
        .append(a.schedulerAllocId())
        .append(" parent=")
        .append(a.parentSessionId())
        .append(" children=")
        .append(a.children())
        .append(" sep=")
        .append(a.separated())
        .append('/')
        .append(a.detached())
        .append(" terminating=")
        .append(a.terminating())
        .append(" deadline=")
        .append(a.deadlineNs())
        .append(" limit=")
        .append(a.timeLimitSeconds())
        .append(" lent=")
        .append(a.lentNodes())
        .append('/')
        .append(a.lendSeconds())
        .append(" members=")
        .append(a.nodes())
        .append(" jobs=")
        .append(a.liveJobs())
        .append(" history=")
        .append(a.history())
        .append('\n');
    if (a.pool() != null) {
      pool(a.pool(), out);
    }
  }

  private static void job(Job j, StringBuilder out) {
    out.append("job ")
        .append(j.namespace())
        .append(' ')
        .append(j.kind())
        .append(' ')
        .append(j.state())
        .append(" parent=")
        .append(j.parent())
        .append(" spawner=")
        .append(j.spawner())
        .append(" reply=")
        .append(j.replyTo())
        .append(j.replyInfos())
        .append(" status=")
        .append(j.status())
        .append('/')
        .append(j.exitCode())
        .append(" first=")
        .append(j.firstAbnormal())
        .append(" abort=")
        .append(j.abortExitCode())
        .append(" recoverable=")
        .append(j.recoverable())
        .append(" stdin=")
        .append(j.stdinRank())
        .append(" deadline=")
        .append(j.deadlineNs())
        .append(" fill=")
        .append(j.fill())
        .append(" stopped=")
        .append(j.stopped())
        .append(" live=")
        .append(j.liveProcs())
        .append(" started=")
        .append(j.startedProcs())
        .append(" desc=")
        .append(j.liveDescendants())
        .append(" targets=")
        .append(j.targetSessionIds())
        .append(" children=")
        .append(j.children())
        .append(" owning=")
        .append(j.owning())
        .append(" ownerOf=")
        .append(j.ownerOf())
        .append(" asks=")
        .append(j.asksFor())
        .append(" retire=")
        .append(j.queuedToRetire)
        .append(" procs=[");
    procs(j, out);
    out.append("]\n");
  }

  private static void procs(Job j, StringBuilder out) {
    for (ProcRecord p : j.procs()) {
      if (p != null) {
        out.append(p.rank())
            .append('@')
            .append(p.node())
            .append(':')
            .append(p.state())
            .append(':')
            .append(p.pid())
            .append(':')
            .append(p.end())
            .append(':')
            .append(p.usage())
            .append(' ');
      }
    }
  }

  private static List<String> names(Allocation a) {
    List<String> out = new ArrayList<>();
    if (a != null) {
      out.add(a.allocId() + "@" + a.deadlineNs());
    }
    return out;
  }
}
