package org.jdvm.server.shell;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntBiFunction;
import org.jdvm.host.JobDirectories;
import org.jdvm.host.identity.Credentials;

/**
 * The environment of a launched process (architecture.md §3): the controller's own environment
 * without anything PMIx- or jdvm-specific, then the app's entries, then the standard PMIx variables
 * a libpmix 4.2 client needs, then jdvm's own.
 *
 * <p>Only {@code PMIX_SERVER_URI41} is exported, with {@code URI61} for master-era clients: a
 * client takes the first URI variable of its highest wire component, and jdvm speaks v41 and v61
 * but not the older encodings (pmix-wire.md §9.1). {@code PMIX_GDS_MODULE=hash} and no {@code
 * PMIX_DSTORE_*} keep job data on the wire, where jdvm serves it.
 *
 * <p>Every process also carries {@link #OMPI41_DIRECT_LAUNCH_MARKER} (docs/protocol.md "Launch
 * marker", docs/wireup.md §a): Open MPI 4.1 uses an external PMIx server only when one of its
 * resource-manager detectors declares the process direct-launched, and with no marker every rank
 * starts as a singleton with a private daemon. It is set after the app's and the core's entries, so
 * an inherited or requested value cannot remove it, and spawned children get it here too (Open MPI
 * copies only {@code OMPI_MCA_*} and {@code OMPI_PARENT_PORT} into a child's environment).
 */
public final class LaunchEnvironment {
  /** The PMIx version this server presents itself as. */
  public static final String PMIX_VERSION = "4.2.2";

  /**
   * The variable that makes Open MPI 4.1 treat a process as direct-launched by a PMIx-capable
   * resource manager: its schizo/jsm detector (priority 80, ahead of the Flux and Slurm ones) tests
   * only that the variable is set
   * (open-mpi/ompi@v4.1.4:orte/mca/schizo/jsm/schizo_jsm_component.c:43) and nothing else in Open
   * MPI 4.1/5.0, OpenPMIx or PRRTE reads it. Open MPI 5 ignores it.
   */
  public static final String OMPI41_DIRECT_LAUNCH_MARKER = "JSM_JSRUN_PORT";

  /**
   * Where Open MPI 4.1 keeps a process's shared-memory segment
   * (open-mpi/ompi@v4.1.4:opal/mca/btl/vader/btl_vader_component.c:570-573): set to the process's
   * own directory ({@link JobDirectories}).
   */
  public static final String OMPI_VADER_BACKING_DIRECTORY = "OMPI_MCA_btl_vader_backing_directory";

  /** The marker's value: only its presence matters; the value says who set it. */
  public static final String OMPI41_DIRECT_LAUNCH_VALUE = "jdvm";

  private final Map<String, String> base;
  private final String serverUri;
  private final String contact;
  private final String tmpDir;
  private final JobDirectories jobDirectories;
  private final Credentials credentials;
  private final Map<String, String> nodeServerUris = new ConcurrentHashMap<>();
  private volatile String pmiPort;
  private volatile ToIntBiFunction<String, Integer> pmiIds;

  /**
   * The variable that chooses which MPI families' wire-up a process is given (docs/protocol.md
   * "Simple PMI"), as Slurm's {@code --mpi}: {@code pmix}, {@code pmi} or {@code none}; unset means
   * both. {@code jdvm run --mpi} sets it in the app's environment.
   */
  public static final String MPI_MODE = "JDVM_MPI";

  /**
   * @param inherited the controller's environment
   * @param serverUri the PMIx URI clients connect to ({@code <nspace>.<rank>;tcp4://host:port})
   * @param contact what {@code jdvm} inside a job uses to find the DVM (JDVM_URI)
   * @param tmpDir the DVM's scratch directory, exported as the PMIx tmpdirs
   */
  public LaunchEnvironment(
      Map<String, String> inherited,
      String serverUri,
      String contact,
      String tmpDir,
      Credentials credentials) {
    Map<String, String> b = new HashMap<>();
    inherited.forEach(
        (k, v) -> {
          if (!k.startsWith("PMIX_") && !k.startsWith("JDVM_") && !k.startsWith("PMI_")) {
            b.put(k, v);
          }
        });
    this.base = Map.copyOf(b);
    this.serverUri = serverUri;
    this.contact = contact;
    this.tmpDir = tmpDir;
    this.jobDirectories = new JobDirectories(Path.of(tmpDir));
    this.credentials = credentials;
  }

  /**
   * From now on, processes launched on {@code node} connect to {@code uri} (its node agent's PMIx
   * relay, jdvm-agent's {@code agent.relay.PmixRelay}) instead of the controller's endpoint; {@code
   * null} turns back to the controller's.
   */
  public void serverUriOn(String node, String uri) {
    if (uri == null) {
      nodeServerUris.remove(node);
    } else {
      nodeServerUris.put(node, uri);
    }
  }

  /**
   * From now on, processes on the controller's nodes are also given the simple PMI server's {@code
   * PMI_PORT} ({@code host:port}) and their {@code PMI_ID} ({@code ids}: a number per namespace and
   * rank), so MPICH-family programs wire up too (docs/protocol.md "Simple PMI").
   */
  public void pmi(String port, ToIntBiFunction<String, Integer> ids) {
    this.pmiIds = ids;
    this.pmiPort = port;
  }

  /** Where jobs' temporary directories are, under the scratch directory. */
  public JobDirectories jobDirectories() {
    return jobDirectories;
  }

  /** The DVM's scratch directory, which jobs get as their temporary directories. */
  public String tmpDir() {
    return tmpDir;
  }

  /**
   * The complete environment of one process.
   *
   * @param appEnv {@code NAME=value} entries from the spawn request's app
   * @param coreEnv {@code NAME=value} entries the core decided (e.g. the job's allocation)
   */
  public Map<String, String> of(
      String nspace, int rank, String node, List<String> appEnv, List<String> coreEnv) {
    return of(nspace, rank, node, appEnv, List.of(), coreEnv);
  }

  /**
   * The complete environment of one process whose app's info may hold environment directives
   * ({@code PMIX_SET_ENVAR}, ...: {@link EnvRules}), applied after the app's entries and before the
   * core's and jdvm's own variables, which therefore always win.
   */
  public Map<String, String> of(
      String nspace,
      int rank,
      String node,
      List<String> appEnv,
      List<org.jdvm.pmix.Info> appInfo,
      List<String> coreEnv) {
    Map<String, String> env = new HashMap<>(base);
    // before the app's entries, so a user's own choice wins (see JobDirectories)
    String own = jobDirectories.procdir(nspace, rank).toString();
    env.put(OMPI_VADER_BACKING_DIRECTORY, own);
    putAll(env, appEnv);
    if (jobDirectories.contains(env.get(OMPI_VADER_BACKING_DIRECTORY))) {
      // jdvm's own choice for the spawning process, which MPI_Comm_spawn passes on to its children
      env.put(OMPI_VADER_BACKING_DIRECTORY, own);
    }
    EnvRules.apply(env, appInfo);
    putAll(env, coreEnv);
    String r = Integer.toUnsignedString(rank);
    String mode = env.getOrDefault(MPI_MODE, "");
    if (!mode.equals("pmi") && !mode.equals("none")) {
      putPmix(env, nspace, r, node);
    }
    String port = pmiPort;
    if (!mode.equals("pmix") && !mode.equals("none") && port != null) {
      // on a node agent's host, its relay puts its own port (jdvm-agent's relay.PmiRelay)
      env.put("PMI_PORT", port);
      env.put("PMI_ID", Integer.toString(pmiIds.applyAsInt(nspace, rank)));
      env.put("PMI_RANK", r);
    }
    // what a node agent opens its relays by, whichever wire-up the process is given
    env.put("JDVM_SERVER_URI", nodeServerUris.getOrDefault(node, serverUri));
    env.put("JDVM_URI", contact);
    env.put("JDVM_CREDENTIAL", credentials.procCredential(nspace, rank));
    env.put("JDVM_NODE", node);
    return env;
  }

  /** The variables a PMIx client (Open MPI, mpi4py over it, jdvm's own) looks for. */
  private void putPmix(Map<String, String> env, String nspace, String r, String node) {
    String uri = nodeServerUris.getOrDefault(node, serverUri);
    env.put("PMIX_NAMESPACE", nspace);
    env.put("PMIX_RANK", r);
    env.put("PMIX_SERVER_URI41", uri);
    env.put("PMIX_SERVER_URI61", uri);
    env.put("PMIX_SECURITY_MODE", "native");
    env.put("PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_NON_DESC");
    env.put("PMIX_GDS_MODULE", "hash");
    env.put("PMIX_SERVER_TMPDIR", tmpDir);
    env.put("PMIX_SYSTEM_TMPDIR", tmpDir);
    env.put("PMIX_HOSTNAME", node);
    env.put("PMIX_VERSION", PMIX_VERSION);
    env.put(OMPI41_DIRECT_LAUNCH_MARKER, OMPI41_DIRECT_LAUNCH_VALUE);
  }

  private static void putAll(Map<String, String> env, List<String> entries) {
    for (String e : entries) {
      int eq = e.indexOf('=');
      if (eq > 0) {
        env.put(e.substring(0, eq), e.substring(eq + 1));
      }
    }
  }
}
