package org.jdvm.endpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jdvm.core.Change;
import org.jdvm.core.query.CoreView;
import org.jdvm.endpoint.serve.EndpointLimits;
import org.jdvm.host.identity.Credentials;
import org.jdvm.server.Dvm;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.shell.LaunchEnvironment;

/**
 * A running endpoint in front of a real DVM (embedded scheduler, in-process agents, real processes)
 * for the endpoint's own tests. Closing it stops everything and ends, by pid, any child process a
 * job left behind.
 */
final class EndpointFixture implements AutoCloseable {
  private static final AtomicInteger NAMES = new AtomicInteger();

  final Credentials credentials = Credentials.generate();
  final PmixEndpoint endpoint;
  final Dvm dvm;
  final AtomicInteger stops = new AtomicInteger();

  /** What the ranks committed, as the endpoint holds it. */
  org.jdvm.endpoint.wireup.ModexStore modex;

  private final Set<Long> pids = ConcurrentHashMap.newKeySet();

  EndpointFixture(Path home, int nodes, int slots, int spare) throws IOException {
    this(home, nodes, slots, spare, EndpointLimits.DEFAULT);
  }

  EndpointFixture(Path home, int nodes, int slots, int spare, EndpointLimits limits)
      throws IOException {
    String name = "e" + ProcessHandle.current().pid() + "x" + NAMES.incrementAndGet();
    endpoint = PmixEndpoint.open(name, home.resolve("dvm.sock"), 0, credentials, limits);
    LaunchEnvironment env =
        new LaunchEnvironment(
            Map.of("PATH", "/usr/bin:/bin"),
            endpoint.uri(),
            endpoint.uri(),
            home.toString(),
            credentials);
    dvm =
        Dvm.start(
            DvmConfig.embedded(name, nodes, slots, spare, home).withShrinkGrace(300),
            endpoint,
            env);
    Dvm served = dvm;
    endpoint.serve(
        parts -> {
          modex = parts.modex();
          return new org.jdvm.server.upstream.ControllerUpstream(parts, served);
        },
        dvm::observe,
        stops::incrementAndGet);
    endpoint.observe(
        o -> {
          for (Change c : o.changes()) {
            if (c instanceof Change.ProcsStarted s) {
              s.procs().forEach(p -> pids.add(p.pid()));
            }
          }
        });
  }

  <T> T read(Function<CoreView, T> query) {
    return dvm.read(query).join();
  }

  @Override
  public void close() {
    endpoint.close();
    dvm.close();
    long self = ProcessHandle.current().pid();
    List<Long> left = new ArrayList<>();
    for (long pid : pids) {
      ProcessHandle.of(pid)
          .filter(h -> h.parent().map(p -> p.pid() == self).orElse(false))
          .ifPresent(
              h -> {
                left.add(pid);
                h.destroyForcibly();
              });
    }
    if (!left.isEmpty()) {
      throw new AssertionError("processes left after the DVM stopped: " + left);
    }
  }
}
