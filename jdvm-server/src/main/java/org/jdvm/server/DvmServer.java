package org.jdvm.server;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import org.jdvm.server.home.DvmHome;
import org.jdvm.server.pmix.PmixEndpoint;
import org.jdvm.server.shell.LaunchEnvironment;

/**
 * A DVM as {@code jdvm start} runs it: its directory, the PMIx endpoint in front, the DVM behind.
 *
 * <p>Start order: claim the directory (lock, secrets), bind the endpoint (its URI goes into every
 * launched process's environment), start the DVM, serve, and only then publish the contact file —
 * so a client that finds the file finds a DVM that answers. Stop order is the reverse: the DVM
 * tears down first (every session ends, scheduler nodes go back, every process is ended, pending
 * requests are answered), then the endpoint closes its connections, then the contact file goes.
 */
public final class DvmServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server");

  private final DvmHome home;
  private final PmixEndpoint endpoint;
  private final Dvm dvm;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean closing;
  private volatile Throwable failure;

  private DvmServer(DvmHome home, PmixEndpoint endpoint, Dvm dvm) {
    this.home = home;
    this.endpoint = endpoint;
    this.dvm = dvm;
  }

  /**
   * Starts a DVM in {@code config.home()}.
   *
   * @throws IllegalStateException if another DVM runs in that directory
   * @throws IOException if the directory or the listeners cannot be set up
   */
  public static DvmServer start(DvmConfig config) throws IOException {
    DvmHome home = DvmHome.claim(config.home());
    PmixEndpoint endpoint = null;
    try {
      endpoint = PmixEndpoint.open(config.name(), home.socket(), 0, home.credentials());
      LaunchEnvironment environment =
          new LaunchEnvironment(
              System.getenv(),
              endpoint.uri(),
              home.dir().resolve(DvmHome.CONTACT).toString(),
              home.tmp().toString(),
              home.credentials());
      Dvm dvm = Dvm.start(config, endpoint, environment);
      DvmServer server = new DvmServer(home, endpoint, dvm);
      dvm.onFatal(server::fail);
      endpoint.onFatal(server::fail);
      endpoint.serve(dvm, () -> Thread.ofPlatform().start(server::close));
      String tcp =
          endpoint.tcpAddress().getAddress().getHostAddress()
              + ":"
              + endpoint.tcpAddress().getPort();
      home.publish(config.name(), endpoint.uri(), tcp);
      LOG.log(
          System.Logger.Level.INFO, "dvm=" + config.name() + " uri=" + endpoint.uri() + " ready");
      return server;
    } catch (IOException | RuntimeException e) {
      if (endpoint != null) {
        endpoint.close();
      }
      home.close();
      throw e;
    }
  }

  public Dvm dvm() {
    return dvm;
  }

  public PmixEndpoint endpoint() {
    return endpoint;
  }

  public DvmHome home() {
    return home;
  }

  /** Blocks until the DVM has stopped (by {@code jdvm stop}, a signal, or {@link #close}). */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** Waits at most {@code millis} for the DVM to stop; true if it has. */
  public boolean awaitStop(long millis) throws InterruptedException {
    return stopped.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /**
   * A failure no thread of the DVM can go on after (an {@link Error}, above all out of memory, or a
   * broken invariant): the DVM stops at once, visibly, as by {@code jdvm stop} — every job's
   * processes are ended, the contact file is removed, and the log's last line says why. Called from
   * the failing thread; the stop runs on a thread of its own. A process that runs the DVM should
   * also route uncaught throwables here ({@code Thread.setDefaultUncaughtExceptionHandler}) and
   * exit with a failure status once {@link #awaitStop} returns and {@link #failure} is set.
   */
  public void fail(Throwable t) {
    synchronized (this) {
      if (failure != null || closing) {
        return;
      }
      failure = t;
    }
    try {
      LOG.log(
          System.Logger.Level.ERROR,
          "dvm=" + dvm.config().name() + " failed=\"" + t + "\": the DVM stops");
    } catch (Throwable logging) {
      // Out of memory even for the line: stopping matters more.
    }
    Thread.ofPlatform().name("jdvm-fail-stop").start(this::close);
  }

  /** What stopped the DVM, or {@code null} while it runs or when it was stopped on request. */
  public Throwable failure() {
    return failure;
  }

  /** Stops the DVM: teardown, then the endpoint, then the directory. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
    }
    try {
      dvm.close();
    } finally {
      endpoint.close();
      home.close();
      Throwable f = failure;
      LOG.log(
          f == null ? System.Logger.Level.INFO : System.Logger.Level.ERROR,
          "dvm=" + dvm.config().name() + " stopped" + (f == null ? "" : " after a failure: " + f));
      stopped.countDown();
    }
  }
}
