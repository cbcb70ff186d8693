package org.jdvm.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.host.os.Containment;
import org.jdvm.host.os.NativeSpawn;
import org.jdvm.host.os.Posix;
import org.jdvm.host.os.Start;

/**
 * How this host starts processes, and the start of each ({@link #give}). Where jdvm's native start
 * is built ({@link NativeSpawn}) a process is born inside its job's cgroup with its pidfd;
 * elsewhere, where this kernel kills such births ({@link BirthProbe}), or once it turned out to
 * have no {@code clone3}, {@code posix_spawn} starts it and the {@link Containment} moves it in.
 */
final class Births {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  private static final int E2BIG = 7;
  private static final int ENOSYS = 38;

  private final Containment containment;
  private final DescriptorBudget budget;
  private final LiveGroups groups;

  /** Whether starts go through {@link NativeSpawn}: it loaded, and clone3 has not failed. */
  private volatile boolean nativeSpawn = NativeSpawn.unavailable().isEmpty();

  Births(Containment containment, DescriptorBudget budget, LiveGroups groups) {
    this.containment = containment;
    this.budget = budget;
    this.groups = groups;
    if (nativeSpawn
        && containment.mode() == Containment.Mode.CGROUP
        && !BirthProbe.birthsSurvive(containment)) {
      nativeSpawn = false;
    }
    describeStarts();
  }

  /** Starts every process with {@link Posix#spawn} from now on (tests of that path). */
  void startingWithPosixSpawn() {
    nativeSpawn = false;
    describeStarts();
  }

  /** Records how processes start now (the containment's description). */
  private void describeStarts() {
    boolean cgroup = containment.mode() == Containment.Mode.CGROUP;
    containment.describeStarts(
        !nativeSpawn
            ? "started by posix_spawn" + (cgroup ? " and moved in" : "")
            : cgroup ? "each process born in its job's cgroup (clone3)" : "started by clone3");
  }

  /**
   * Starts {@code exe} for {@code request} in {@code group}, its descriptors reserved ({@code
   * fds}): returns it running, in its group's containment, with the host's ends of its pipes open.
   *
   * @throws LaunchException if the OS refuses or the process cannot be watched; whatever the start
   *     held is given back first ({@link Birth#undo})
   */
  Birth give(String group, LaunchRequest request, Path exe, DescriptorBudget.Reservation fds)
      throws LaunchException {
    List<String> argv = new ArrayList<>(request.argv());
    argv.set(0, exe.toString());
    Map<String, String> env = request.environment();
    String[] tag = containment.tagFor(group);
    if (tag != null) {
      env = new HashMap<>(env);
      env.put(tag[0], tag[1]);
    }
    Birth b = new Birth(group, request.argv().get(0), fds, budget, groups);
    try {
      b.openPipes(request.mergeStderr(), request.stdin());
      Path cwd = request.workingDirectory();
      spawn(
          b,
          new Start(exe, argv, env, cwd, b.childIn(), b.childOut(), b.childErr(), request.cpus()));
    } catch (Posix.PosixException e) {
      b.undo();
      throw refused(b.cmd, e);
    }
    b.closeChildEnds();
    WatchedPids.add(b.pid);
    if (!b.born) {
      containment.adopt(b.pid, group);
    }
    if (fds.withPidfd() && b.pidfd == Birth.NO_PIDFD) {
      b.pidfd = Posix.pidfdOpen(b.pid);
    }
    if (b.pidfd < 0 && b.pidfd != Birth.NO_PIDFD) {
      // Out of descriptors between the count and here: the process cannot be watched.
      int errno = -b.pidfd;
      b.undo();
      throw new LaunchException(
          LaunchException.Kind.OUT_OF_RESOURCE,
          "cannot watch " + b.cmd + ": " + Posix.strerror(errno),
          null);
    }
    return b;
  }

  /** Starts the process of {@code b} the way this host starts them now. */
  private void spawn(Birth b, Start start) throws Posix.PosixException {
    Path birthplace = nativeSpawn ? containment.birthplace(b.group) : null;
    NativeSpawn.Started started =
        nativeSpawn ? spawnNative(start, birthplace, b.fds.withPidfd()) : null;
    if (started != null) {
      b.pid = started.pid();
      b.pidfd = b.fds.withPidfd() ? started.pidfd() : Birth.NO_PIDFD;
      b.born = birthplace != null;
    } else {
      b.pid = Posix.spawn(start);
    }
  }

  /**
   * Starts through {@link NativeSpawn}, or returns {@code null} for {@link Posix#spawn} to start
   * instead: when this kernel has no {@code clone3} (never tried again), or a birth inside the
   * cgroup failed (this start is made outside and moved; a failed attempt leaves nothing behind).
   */
  private NativeSpawn.Started spawnNative(Start start, Path birthplace, boolean withPidfd)
      throws Posix.PosixException {
    try {
      return NativeSpawn.spawn(start, birthplace, withPidfd);
    } catch (Posix.PosixException e) {
      switch (e.errno()) {
        case ENOSYS, E2BIG -> {
          nativeSpawn = false;
          describeStarts();
          LOG.log(
              System.Logger.Level.INFO,
              "this kernel has no clone3: processes are started by posix_spawn");
          return null;
        }
        default -> {
          // A birth inside the cgroup failed (the cgroup refused it, or the program did): start
          // it again the other way, which moves it in, or fails with the program's own error.
          if (birthplace != null) {
            return null;
          }
          throw e;
        }
      }
    }
  }

  /** A start the OS refused: out of resource if it ran out of something, else refused. */
  private static LaunchException refused(String cmd, Posix.PosixException e) {
    int errno = e.errno();
    boolean resources =
        errno == Posix.EMFILE
            || errno == Posix.ENFILE
            || errno == Posix.ENOMEM
            || errno == Posix.EAGAIN;
    return new LaunchException(
        resources ? LaunchException.Kind.OUT_OF_RESOURCE : LaunchException.Kind.START_REFUSED,
        "cannot start " + cmd + ": " + Posix.strerror(errno),
        e);
  }
}
