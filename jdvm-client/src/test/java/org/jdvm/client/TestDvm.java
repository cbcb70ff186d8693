package org.jdvm.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jdvm.core.query.CoreView;
import org.jdvm.core.query.JobView;
import org.jdvm.core.query.NodeView;
import org.jdvm.core.query.ProcView;
import org.jdvm.endpoint.PmixEndpoint;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.Proc;
import org.jdvm.server.Dvm;
import org.jdvm.server.DvmConfig;
import org.jdvm.server.shell.LaunchEnvironment;

/**
 * A real DVM for protocol tests: the endpoint on a Unix socket and loopback TCP, the controller,
 * in-process agents running real processes, and the embedded scheduler; with a contact file, secret
 * and scheduler credential in its directory as {@code jdvm start} writes them. Closing it closes
 * every client it made, tears the DVM down and then makes sure, by pid, that no process any job ran
 * is left.
 */
final class TestDvm implements AutoCloseable {
  private static final AtomicInteger NAMES = new AtomicInteger();

  final Path home;
  final Credentials credentials = Credentials.generate();
  final PmixEndpoint endpoint;
  final Dvm dvm;
  final Path contactFile;
  final LaunchEnvironment env;
  final AtomicInteger stops = new AtomicInteger();
  private final List<JdvmClient> clients = new CopyOnWriteArrayList<>();
  private final Set<Long> pids = ConcurrentHashMap.newKeySet();

  private TestDvm(Path home, DvmConfig config) throws IOException {
    this.home = Files.createDirectories(home);
    String name = config.name();
    endpoint = PmixEndpoint.open(name, home.resolve("dvm.sock"), 0, credentials);
    contactFile = home.resolve("dvm.json");
    Files.writeString(
        contactFile,
        "{\"name\":\""
            + name
            + "\",\"pid\":"
            + ProcessHandle.current().pid()
            + ",\"uri\":\""
            + endpoint.uri()
            + "\",\"tcp\":\"127.0.0.1:"
            + endpoint.tcpAddress().getPort()
            + "\",\"unix\":\""
            + endpoint.unixSocket()
            + "\",\"version\":\"0.1.0\"}");
    Files.writeString(home.resolve("secret"), credentials.secretHex());
    Files.writeString(home.resolve("scheduler.cred"), credentials.schedulerCredential());
    env =
        new LaunchEnvironment(
            Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "HOME", home.toString()),
            endpoint.uri(),
            contactFile.toString(),
            home.toString(),
            credentials);
    dvm = Dvm.start(config, endpoint, env);
    Dvm served = dvm;
    endpoint.serve(
        parts -> new org.jdvm.server.upstream.ControllerUpstream(parts, served),
        dvm::observe,
        stops::incrementAndGet);
    endpoint.observe(
        o ->
            o.changes()
                .forEach(
                    c -> {
                      if (c instanceof org.jdvm.core.Change.ProcsStarted s) {
                        s.procs().forEach(p -> pids.add(p.pid()));
                      }
                    }));
  }

  /** The embedded default: {@code nodes} start-up nodes and {@code spare} scheduler nodes. */
  static TestDvm start(Path home, int nodes, int slots, int spare) throws IOException {
    String name = "t" + ProcessHandle.current().pid() + "x" + NAMES.incrementAndGet();
    return new TestDvm(
        home, DvmConfig.embedded(name, nodes, slots, spare, home).withShrinkGrace(300));
  }

  static TestDvm start(Path home, DvmConfig config) throws IOException {
    return new TestDvm(home, config);
  }

  Contact contact() throws PmixException {
    return Contact.fromFile(contactFile);
  }

  /** A tool client whose output is recorded. */
  JdvmClient tool(Output output) throws PmixException {
    return keep(JdvmClient.connector().contact(contact()).role(Role.TOOL).output(output).connect());
  }

  JdvmClient tool() throws PmixException {
    return tool(new Output());
  }

  JdvmClient scheduler() throws PmixException {
    return keep(
        JdvmClient.connector()
            .contact(contact())
            .role(Role.SCHEDULER)
            .output(OutputHandler.DISCARD)
            .connect());
  }

  /** A client acting as a launched process, proved by the process's own credential. */
  JdvmClient asProcess(Proc proc, String credential) throws PmixException {
    return keep(
        JdvmClient.connector()
            .contact(contact())
            .asProcess(proc, credential)
            .output(OutputHandler.DISCARD)
            .connect());
  }

  /**
   * Spawns a long-running one-process job that prints its own {@code JDVM_CREDENTIAL}, and returns
   * a client acting as that process, proved by the credential it read from its environment: an
   * application requester.
   */
  Process0 runningJob(JdvmClient spawner, Output out, String... targets) throws Exception {
    Job job =
        spawner.spawn(
            SpawnRequest.of("sh", "-c", "echo $JDVM_CREDENTIAL; exec sleep 60")
                .target(targets)
                .build());
    await(() -> out.of(job.nspace(), 0, false).endsWith("\n"), "the credential of " + job);
    String credential = out.of(job.nspace(), 0, false).trim();
    Proc proc = new Proc(job.nspace(), 0);
    return new Process0(job, proc, credential, asProcess(proc, credential));
  }

  /** A job's rank 0, its credential, and a client acting as it. */
  record Process0(Job job, Proc proc, String credential, JdvmClient client) {
    String nspace() {
      return proc.nspace();
    }
  }

  JdvmClient keep(JdvmClient c) {
    clients.add(c);
    return c;
  }

  <T> T read(Function<CoreView, T> query) {
    return dvm.read(query).join();
  }

  List<String> reservedNodes() {
    return read(v -> v.nodes().stream().filter(NodeView::reserved).map(NodeView::name).toList());
  }

  List<String> nodeNames() {
    return read(v -> v.nodes().stream().map(NodeView::name).toList());
  }

  /** The nodes a job's processes were placed on. */
  Set<String> nodesOf(String nspace) {
    return read(
        v ->
            new HashSet<>(
                v.job(nspace)
                    .map(j -> j.procs().stream().map(ProcView::node).toList())
                    .orElseThrow()));
  }

  JobView.State jobState(String nspace) {
    return read(v -> v.job(nspace).map(JobView::state).orElse(null));
  }

  boolean allocationExists(String allocId) {
    return read(v -> v.allocation(allocId).isPresent());
  }

  /** Waits for a condition, bounded: no sleeping in place of knowing. */
  static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  private boolean closed;

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (JdvmClient c : clients) {
      c.close();
    }
    read(
        v -> {
          for (JobView j : v.jobs()) {
            for (ProcView p : j.procs()) {
              if (p.pid() > 0) {
                pids.add(p.pid());
              }
            }
          }
          return null;
        });
    endpoint.close();
    dvm.close();
    List<Long> left = new ArrayList<>();
    long self = ProcessHandle.current().pid();
    for (long pid : pids) {
      // Only our own children: a pid of a process long gone may name someone else's by now.
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

  /** An output handler that records each process's output, and the order of arrivals. */
  static final class Output implements OutputHandler {
    final Map<String, ByteArrayOutputStream> bytes = new ConcurrentHashMap<>();
    final List<String> order = new CopyOnWriteArrayList<>();

    @Override
    public void output(Proc source, boolean stderr, byte[] data) {
      String key = source + (stderr ? "/err" : "/out");
      bytes.computeIfAbsent(key, k -> new ByteArrayOutputStream()).writeBytes(data);
      order.add(key);
    }

    String of(String nspace, int rank, boolean stderr) {
      ByteArrayOutputStream b = bytes.get(new Proc(nspace, rank) + (stderr ? "/err" : "/out"));
      return b == null ? "" : b.toString();
    }
  }
}
