package org.jdvm.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jdvm.agent.relay.PmixRelay;
import org.jdvm.core.Change;
import org.jdvm.core.query.ProcView;
import org.jdvm.pmix.Proc;
import org.jdvm.server.agents.RelayHost;

/**
 * Every node of a test DVM behind a node agent's PMIx relay (docs/protocol.md "Node agents"), as
 * far as the relay goes: per node an in-memory link ({@link MemoryLink}), the relay on the agent's
 * side, the controller's end, and the node's processes pointed at the relay. What an agent learns
 * from its own launches (pids, ended processes and jobs) is read from the DVM.
 */
final class RelayedNodes implements AutoCloseable {
  /** One node's agent: its link, its relay, the controller's end. */
  record Agent(String node, MemoryLink link, PmixRelay relay, RelayHost host) {}

  final List<Agent> agents = new ArrayList<>();
  private final TestDvm dvm;

  private RelayedNodes(TestDvm dvm) {
    this.dvm = dvm;
  }

  /** Puts every node of {@code dvm} behind a relay of its own. */
  static RelayedNodes attach(TestDvm dvm, boolean answerLocally) throws IOException {
    RelayedNodes r = new RelayedNodes(dvm);
    for (String node : dvm.nodeNames()) {
      MemoryLink link = new MemoryLink();
      RelayHost host = RelayHost.serve(dvm.endpoint, node, link.controller);
      PmixRelay relay =
          PmixRelay.open(
              new PmixRelay.Config(
                  dvm.endpoint.dvmName(),
                  dvm.credentials,
                  (proc, timeoutMs) -> r.pidOn(node, proc, timeoutMs),
                  p -> dvm.env.jobDirectories().create(p.nspace(), p.rank()),
                  null,
                  answerLocally),
              link.agent,
              link.agent::opened);
      dvm.env.serverUriOn(node, relay.uri());
      r.agents.add(new Agent(node, link, relay, host));
    }
    dvm.endpoint.observe(
        o -> {
          for (Change c : o.changes()) {
            for (Agent a : r.agents) {
              if (c instanceof Change.ProcsEnded e) {
                a.relay().procsEnded(e.namespace(), e.ranks());
              } else if (c instanceof Change.JobTerminated t) {
                a.relay().jobEnded(t.namespace());
              }
            }
          }
        });
    return r;
  }

  /** The pid of a process the agent of {@code node} runs, as an agent knows its own launches. */
  private long pidOn(String node, Proc proc, long timeoutMs) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (true) {
      Optional<ProcView> p =
          dvm.read(
              v ->
                  v.job(proc.nspace())
                      .flatMap(
                          j ->
                              j.procs().stream().filter(x -> x.rank() == proc.rank()).findFirst()));
      if (p.isEmpty() || !p.get().node().equals(node)) {
        return -1;
      }
      if (p.get().pid() > 0) {
        return p.get().pid();
      }
      if (System.nanoTime() > deadline) {
        return 0;
      }
      Thread.onSpinWait();
    }
  }

  /** Peers the relays announced to the controller. */
  long relayed() {
    return agents.stream().mapToLong(a -> a.link().opened.get()).sum();
  }

  /** Frames the relays sent the controller. */
  long framesUp() {
    return agents.stream().mapToLong(a -> a.link().framesUp.get()).sum();
  }

  /** Node entries the relays sent the controller for gathered fences. */
  long nodeEntries() {
    return agents.stream().mapToLong(a -> a.relay().fenceCounts()[1]).sum();
  }

  /** Gets the relays answered from their node's committed data. */
  long getsAnswered() {
    return agents.stream().mapToLong(a -> a.relay().getsAnswered()).sum();
  }

  /** Gets of other ranks the relays answered from what earlier gets brought. */
  long getsFromCache() {
    return agents.stream().mapToLong(a -> a.relay().getsAnsweredFromCache()).sum();
  }

  /** Stops the relays (before the DVM, whose teardown then checks that no process is left). */
  @Override
  public void close() {
    for (Agent a : agents) {
      dvm.env.serverUriOn(a.node(), null);
      a.relay().close();
      a.host().close();
      a.link().close();
    }
  }
}
