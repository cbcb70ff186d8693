package org.jdvm.server.shell;

import java.nio.charset.StandardCharsets;
import org.jdvm.core.Effect.LaunchProcs;
import org.jdvm.core.Effect.ProcLaunch;
import org.jdvm.endpoint.PeerGateway;
import org.jdvm.host.ProcListener;

/**
 * {@code --report-bindings} ({@code PMIX_REPORT_BINDINGS}): one line per process on its job's
 * stderr before it starts, in PRRTE's words ({@code odls_base_bind.c}): {@code [node:pid] Rank 0
 * bound to package[0][core:0]}, or {@code Rank 0 is not bound (or bound to all available
 * processors)}; the pid is the controller's, as PRRTE's is its daemon's.
 */
final class BindingReport {
  private BindingReport() {}

  static void report(PeerGateway gateway, LaunchProcs l, ProcPlaces places) {
    long pid = ProcessHandle.current().pid();
    for (ProcLaunch p : l.procs()) {
      ProcPlaces.Place place = places.of(l.namespace(), p.rank());
      String what =
          place == null || place.cpus() == null
              ? " is not bound (or bound to all available processors)"
              : " bound to " + place.description();
      String line = "[" + l.node() + ":" + pid + "] Rank " + p.rank() + what + "\n";
      gateway.output(
          l.namespace(),
          p.rank(),
          ProcListener.Stream.STDERR,
          line.getBytes(StandardCharsets.UTF_8));
    }
  }
}
