package org.jdvm.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jdvm.agent.link.RelayPort;
import org.jdvm.agent.relay.LocalAdmission;
import org.jdvm.agent.relay.PmixRelay;
import org.jdvm.host.JobDirectories;
import org.jdvm.host.LaunchRequest;
import org.jdvm.host.identity.Credentials;
import org.jdvm.pmix.Proc;

/**
 * What {@code jdvm agent} makes of each launch (docs/protocol.md "Node agents"): it opens the
 * agent's {@link PmixRelay} at the first launch (the DVM's name is read from the controller's PMIx
 * URI in that launch's environment) and points every process at it — {@code PMIX_SERVER_URI41},
 * {@code PMIX_SERVER_URI61} and {@code JDVM_URI} name the relay, so the PMIx library and a {@code
 * jdvm} command inside the job both reach the controller through this host's relay.
 *
 * <p>Job directories: the job data names the controller's paths ({@code pmix.tmpdir}, {@code
 * pmix.nsdir}, {@code pmix.pdir} under the DVM's scratch directory, which is also {@code
 * PMIX_SERVER_TMPDIR}); the agent makes the same paths on its own host when one of its processes
 * gets its job data. It removes a process's own directory when the process ended, the job's
 * directory when its last process on this node ended (recursively if the agent made it, else only
 * when empty: on a file system shared with the controller or other hosts the job's directory is
 * theirs too), and at its end the scratch directory if it made it and it is empty. Paths are the
 * same on every host, so nothing in the job data needs rewriting.
 *
 * <p>Pids for {@link LocalAdmission}: a launch is awaited from just before it starts until it has a
 * pid; a process that never ran here is {@code -1}.
 */
public final class AgentRelay implements LaunchWatcher {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.remote");

  /** The environment variables that name the PMIx server (and the DVM, for {@code jdvm}). */
  static final List<String> SERVER_URI_VARIABLES =
      List.of("PMIX_SERVER_URI41", "PMIX_SERVER_URI61", "JDVM_URI", "JDVM_SERVER_URI");

  private final Credentials credentials;
  private final RelayPort port;
  private final Map<String, CompletableFuture<Long>> pids = new ConcurrentHashMap<>();
  private final Map<String, Integer> localProcs = new HashMap<>();
  private final Map<String, JobDirectories> dirs = new ConcurrentHashMap<>();
  private final Set<String> madeJobDirs = new HashSet<>();
  private final Set<Path> madeRoots = new HashSet<>();
  private PmixRelay relay;
  private boolean closed;

  private AgentRelay(Credentials credentials, RelayPort port) {
    this.credentials = credentials;
    this.port = port;
  }

  /** The relay hook of {@code jdvm agent} ({@link AgentDaemon.Options#relay}). */
  public static Function<RelayPort, UnaryOperator<LaunchRequest>> hook(Credentials credentials) {
    return port -> new AgentRelay(credentials, port);
  }

  /** The relay, once the first launch opened it; {@code null} before. */
  public synchronized PmixRelay relay() {
    return relay;
  }

  /**
   * As {@link #apply}, and a process given simple PMI ({@code PMI_PORT}, docs/protocol.md "Simple
   * PMI") is pointed at the relay's PMI port, where it may claim its {@code PMI_ID}.
   */
  @Override
  public LaunchRequest prepare(String nspace, int rank, LaunchRequest request) {
    LaunchRequest out = apply(request);
    Map<String, String> env = out.environment();
    PmixRelay r = relay();
    Integer id = pmiId(env.get("PMI_ID"));
    if (!env.containsKey("PMI_PORT") || id == null) {
      return out;
    }
    Map<String, String> rewritten = new HashMap<>(env);
    if (r == null) {
      // no relay here: the controller's loopback port means nothing on this host
      rewritten.keySet().removeIf(k -> k.startsWith("PMI_"));
    } else {
      r.pmiLaunched(new Proc(nspace, rank), id);
      rewritten.put("PMI_PORT", r.pmiPort());
    }
    return out.withEnvironment(rewritten);
  }

  private static Integer pmiId(String s) {
    try {
      return s == null ? null : Integer.valueOf(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public LaunchRequest apply(LaunchRequest request) {
    Map<String, String> env = request.environment();
    PmixRelay r = relayFor(env.getOrDefault("PMIX_SERVER_URI41", env.get("JDVM_SERVER_URI")));
    String nspace = env.get("PMIX_NAMESPACE");
    String tmp = env.get("PMIX_SERVER_TMPDIR");
    if (nspace != null && tmp != null && !tmp.isEmpty()) {
      dirs.putIfAbsent(nspace, new JobDirectories(Path.of(tmp)));
    }
    if (r == null) {
      return request;
    }
    Map<String, String> rewritten = new HashMap<>(env);
    String uri = r.uri();
    SERVER_URI_VARIABLES.forEach(v -> rewritten.put(v, uri));
    return request.withEnvironment(rewritten);
  }

  /** The relay, opened at the first launch; {@code null} when it cannot be. */
  private synchronized PmixRelay relayFor(String controllerUri) {
    if (relay != null || closed) {
      return relay;
    }
    String dvmName = dvmName(controllerUri);
    if (dvmName == null) {
      LOG.log(
          System.Logger.Level.WARNING,
          "no PMIx relay: the launch names no controller URI of the form <dvm>@0.0;...");
      return null;
    }
    try {
      relay =
          PmixRelay.open(
              new PmixRelay.Config(dvmName, credentials, this::awaitPid, this::prepare, null, true),
              port,
              port::opened);
      LOG.log(System.Logger.Level.INFO, "relay=" + relay.uri() + " dvm=" + dvmName);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot open the PMIx relay: " + e.getMessage());
    }
    return relay;
  }

  /** The DVM's name in the controller's URI {@code <dvm>@0.0;tcp4://...}, or {@code null}. */
  public static String dvmName(String uri) {
    if (uri == null) {
      return null;
    }
    int semi = uri.indexOf(';');
    if (semi < 0 || !uri.substring(0, semi).endsWith("@0.0") || semi <= 4) {
      return null;
    }
    return uri.substring(0, semi - 4);
  }

  // ---- pids ------------------------------------------------------------------------------------

  @Override
  public void launching(String nspace, int rank) {
    pids.put(key(nspace, rank), new CompletableFuture<>());
    synchronized (this) {
      localProcs.merge(nspace, 1, Integer::sum);
    }
  }

  @Override
  public void launched(String nspace, int rank, long pid) {
    CompletableFuture<Long> f = pids.get(key(nspace, rank));
    if (f == null) {
      return; // it exited already
    }
    if (pid > 0) {
      f.complete(pid);
    } else if (pids.remove(key(nspace, rank), f)) {
      f.complete(-1L);
      ended(nspace);
    }
  }

  @Override
  public void exited(String nspace, int rank) {
    CompletableFuture<Long> f = pids.remove(key(nspace, rank));
    if (f == null) {
      return;
    }
    f.complete(-1L);
    PmixRelay r = relay();
    if (r != null) {
      r.procsEnded(nspace, List.of(rank));
    }
    JobDirectories d = dirs.get(nspace);
    if (d != null) {
      JobDirectories.removeTree(d.procdir(nspace, rank));
    }
    ended(nspace);
  }

  /** One process of {@code nspace} is gone here; after the last, the job is forgotten here. */
  private void ended(String nspace) {
    boolean last;
    boolean made;
    synchronized (this) {
      last = localProcs.merge(nspace, -1, Integer::sum) <= 0;
      if (last) {
        localProcs.remove(nspace);
      }
      made = last && madeJobDirs.remove(nspace);
    }
    if (!last) {
      return;
    }
    PmixRelay r = relay();
    if (r != null) {
      r.jobEnded(nspace);
    }
    JobDirectories d = dirs.remove(nspace);
    if (d != null) {
      removeJobDir(d.nsdir(nspace), made);
    }
  }

  private static void removeJobDir(Path nsdir, boolean made) {
    if (made) {
      JobDirectories.removeTree(nsdir);
      return;
    }
    try {
      Files.deleteIfExists(nsdir);
    } catch (IOException e) {
      // Not empty: the directory is shared with other hosts, whose processes still use it.
    }
  }

  long awaitPid(Proc proc, long timeoutMs) {
    CompletableFuture<Long> f = pids.get(key(proc.nspace(), proc.rank()));
    if (f == null) {
      return -1;
    }
    try {
      return f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    } catch (ExecutionException e) {
      return -1;
    }
  }

  // ---- job directories -------------------------------------------------------------------------

  /** Makes the process's directories on this host as it gets its job data. */
  void prepare(Proc proc) {
    JobDirectories d = dirs.get(proc.nspace());
    if (d == null) {
      return;
    }
    Path root = d.root();
    Path nsdir = d.nsdir(proc.nspace());
    synchronized (this) {
      if (closed || !localProcs.containsKey(proc.nspace())) {
        return;
      }
      if (!Files.isDirectory(root)) {
        madeRoots.add(root);
      }
      if (!Files.isDirectory(nsdir)) {
        madeJobDirs.add(proc.nspace());
      }
    }
    d.create(proc.nspace(), proc.rank());
  }

  /** The agent ends: the relay closes, and the directories it made go. */
  @Override
  public void close() {
    PmixRelay r;
    Set<Path> roots;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      r = relay;
      roots = Set.copyOf(madeRoots);
      for (String nspace : madeJobDirs) {
        JobDirectories d = dirs.get(nspace);
        if (d != null) {
          JobDirectories.removeTree(d.nsdir(nspace));
        }
      }
      madeJobDirs.clear();
    }
    if (r != null) {
      r.close();
    }
    for (Path root : roots) {
      try {
        Files.deleteIfExists(root);
      } catch (IOException e) {
        LOG.log(System.Logger.Level.DEBUG, "leaving " + root + ": " + e.getMessage());
      }
    }
  }

  private static String key(String nspace, int rank) {
    return nspace + "." + rank;
  }
}
