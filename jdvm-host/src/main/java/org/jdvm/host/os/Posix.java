package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The few Linux calls the process host needs, through the foreign-function API (POSIX.1-2024 {@code
 * posix_spawn}, {@code waitid}, {@code kill}; Linux {@code pidfd_open(2)}, {@code epoll(7)}, {@code
 * prctl(2)}). Every call that can fail returns {@code -errno} or throws {@link PosixException};
 * none blocks except {@link #epollWait}, which only the host's poller thread calls.
 *
 * <p>Constants are the Linux ones (the same on x86-64 and aarch64); {@code struct epoll_event} is
 * packed on x86-64 only.
 */
public final class Posix {
  public static final int O_RDONLY = 0;
  public static final int O_CLOEXEC = 0x80000;
  public static final int O_NONBLOCK = 0x800;
  public static final int EAGAIN = 11;
  public static final int EINTR = 4;
  public static final int ESRCH = 3;
  public static final int EMFILE = 24;
  public static final int ENFILE = 23;
  public static final int ENOMEM = 12;
  public static final int EPOLLIN = 0x1;
  public static final int EPOLLOUT = 0x4;
  public static final int EPOLLERR = 0x8;
  public static final int EPOLLHUP = 0x10;
  public static final int CLD_EXITED = 1;
  public static final int CLD_KILLED = 2;
  public static final int CLD_DUMPED = 3;

  private static final int POSIX_SPAWN_SETSIGDEF = 0x04;
  private static final int POSIX_SPAWN_SETSIGMASK = 0x08;
  private static final int POSIX_SPAWN_SETSID = 0x80;
  private static final int F_GETFL = 3;
  private static final int F_SETFL = 4;
  private static final int P_ALL = 0;
  private static final int P_PID = 1;
  private static final int WNOWAIT = 0x1000000;
  private static final int P_PIDFD = 3;
  private static final int WEXITED = 4;
  private static final int WNOHANG = 1;
  private static final int EPOLL_CTL_ADD = 1;
  private static final int EPOLL_CTL_DEL = 2;
  private static final int EPOLL_CTL_MOD = 3;
  private static final int PR_SET_CHILD_SUBREAPER = 36;
  private static final int RLIMIT_NOFILE = 7;
  private static final long SYS_PIDFD_OPEN = 434;
  private static final long FILE_ACTIONS_SIZE = 80;
  private static final long SPAWNATTR_SIZE = 336;
  private static final long SIGSET_SIZE = 128;
  private static final long SIGINFO_SIZE = 128;

  /** {@code struct epoll_event}: 12 bytes packed on x86-64, 16 elsewhere. */
  public static final long EPOLL_EVENT_SIZE;

  private static final long EPOLL_DATA_OFFSET;

  private static final Linker LINKER = Linker.nativeLinker();
  private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO =
      CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
  private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

  private static final MethodHandle POSIX_SPAWN;
  private static final MethodHandle FA_INIT;
  private static final MethodHandle FA_DESTROY;
  private static final MethodHandle FA_DUP2;
  private static final MethodHandle FA_OPEN;
  private static final MethodHandle FA_CHDIR;
  private static final MethodHandle FA_CLOSEFROM;
  private static final MethodHandle ATTR_INIT;
  private static final MethodHandle ATTR_DESTROY;
  private static final MethodHandle ATTR_SETFLAGS;
  private static final MethodHandle ATTR_SETSIGMASK;
  private static final MethodHandle ATTR_SETSIGDEFAULT;
  private static final MethodHandle SIGEMPTYSET;
  private static final MethodHandle SIGFILLSET;
  private static final MethodHandle SIGDELSET;
  private static final MethodHandle PIPE2;
  private static final MethodHandle FCNTL;
  private static final MethodHandle SYSCALL2;
  private static final MethodHandle WAITID;
  private static final MethodHandle KILL;
  private static final MethodHandle CLOSE;
  private static final MethodHandle READ;
  private static final MethodHandle WRITE;
  private static final MethodHandle EPOLL_CREATE1;
  private static final MethodHandle EPOLL_CTL;
  private static final MethodHandle EPOLL_WAIT;
  private static final MethodHandle EVENTFD;
  private static final MethodHandle PRCTL;
  private static final MethodHandle GETRLIMIT;
  private static final MethodHandle SETRLIMIT;
  private static final MethodHandle SEND;
  private static final Throwable UNAVAILABLE;

  static {
    boolean x86 = System.getProperty("os.arch", "").matches("amd64|x86_64");
    EPOLL_EVENT_SIZE = x86 ? 12 : 16;
    EPOLL_DATA_OFFSET = x86 ? 4 : 8;
    MethodHandle[] h = new MethodHandle[31];
    Throwable failure = null;
    try {
      if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
        throw new UnsupportedOperationException("not Linux");
      }
      SymbolLookup libc = LINKER.defaultLookup();
      h[0] =
          fn(libc, "posix_spawn", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
      h[1] = fn(libc, "posix_spawn_file_actions_init", JAVA_INT, ADDRESS);
      h[2] = fn(libc, "posix_spawn_file_actions_destroy", JAVA_INT, ADDRESS);
      h[3] = fn(libc, "posix_spawn_file_actions_adddup2", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);
      h[4] =
          fn(
              libc,
              "posix_spawn_file_actions_addopen",
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              ADDRESS,
              JAVA_INT,
              JAVA_INT);
      h[5] = fn(libc, "posix_spawn_file_actions_addchdir_np", JAVA_INT, ADDRESS, ADDRESS);
      h[6] =
          libc.find("posix_spawn_file_actions_addclosefrom_np").isPresent()
              ? fn(libc, "posix_spawn_file_actions_addclosefrom_np", JAVA_INT, ADDRESS, JAVA_INT)
              : null;
      h[7] = fn(libc, "posix_spawnattr_init", JAVA_INT, ADDRESS);
      h[8] = fn(libc, "posix_spawnattr_destroy", JAVA_INT, ADDRESS);
      h[9] = fn(libc, "posix_spawnattr_setflags", JAVA_INT, ADDRESS, JAVA_INT);
      h[10] = fn(libc, "posix_spawnattr_setsigmask", JAVA_INT, ADDRESS, ADDRESS);
      h[11] = fn(libc, "posix_spawnattr_setsigdefault", JAVA_INT, ADDRESS, ADDRESS);
      h[12] = fn(libc, "sigemptyset", JAVA_INT, ADDRESS);
      h[13] = fn(libc, "sigfillset", JAVA_INT, ADDRESS);
      h[14] = fn(libc, "sigdelset", JAVA_INT, ADDRESS, JAVA_INT);
      h[15] = errnoFn(libc, "pipe2", JAVA_INT, ADDRESS, JAVA_INT);
      h[16] =
          LINKER.downcallHandle(
              libc.find("fcntl").orElseThrow(),
              FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
              CAPTURE,
              Linker.Option.firstVariadicArg(2));
      h[17] =
          LINKER.downcallHandle(
              libc.find("syscall").orElseThrow(),
              FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
              CAPTURE,
              Linker.Option.firstVariadicArg(1));
      h[18] = errnoFn(libc, "waitid", JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
      h[19] = errnoFn(libc, "kill", JAVA_INT, JAVA_INT, JAVA_INT);
      h[20] = errnoFn(libc, "close", JAVA_INT, JAVA_INT);
      h[21] = errnoFn(libc, "read", JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
      h[22] = errnoFn(libc, "write", JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);
      h[23] = errnoFn(libc, "epoll_create1", JAVA_INT, JAVA_INT);
      h[24] = errnoFn(libc, "epoll_ctl", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS);
      h[25] = errnoFn(libc, "epoll_wait", JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);
      h[26] = errnoFn(libc, "eventfd", JAVA_INT, JAVA_INT, JAVA_INT);
      h[27] =
          LINKER.downcallHandle(
              libc.find("prctl").orElseThrow(),
              FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG),
              CAPTURE,
              Linker.Option.firstVariadicArg(1));
      h[28] = errnoFn(libc, "getrlimit", JAVA_INT, JAVA_INT, ADDRESS);
      h[29] = errnoFn(libc, "setrlimit", JAVA_INT, JAVA_INT, ADDRESS);
      // Reads the caller's byte[] in place: no copy, and nothing that could block runs meanwhile.
      h[30] =
          LINKER.downcallHandle(
              libc.find("send").orElseThrow(),
              FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
              CAPTURE,
              Linker.Option.critical(true));
    } catch (Throwable t) {
      failure = t;
    }
    UNAVAILABLE = failure;
    POSIX_SPAWN = h[0];
    FA_INIT = h[1];
    FA_DESTROY = h[2];
    FA_DUP2 = h[3];
    FA_OPEN = h[4];
    FA_CHDIR = h[5];
    FA_CLOSEFROM = h[6];
    ATTR_INIT = h[7];
    ATTR_DESTROY = h[8];
    ATTR_SETFLAGS = h[9];
    ATTR_SETSIGMASK = h[10];
    ATTR_SETSIGDEFAULT = h[11];
    SIGEMPTYSET = h[12];
    SIGFILLSET = h[13];
    SIGDELSET = h[14];
    PIPE2 = h[15];
    FCNTL = h[16];
    SYSCALL2 = h[17];
    WAITID = h[18];
    KILL = h[19];
    CLOSE = h[20];
    READ = h[21];
    WRITE = h[22];
    EPOLL_CREATE1 = h[23];
    EPOLL_CTL = h[24];
    EPOLL_WAIT = h[25];
    EVENTFD = h[26];
    PRCTL = h[27];
    GETRLIMIT = h[28];
    SETRLIMIT = h[29];
    SEND = h[30];
  }

  private Posix() {}

  private static MethodHandle fn(
      SymbolLookup lib, String name, MemoryLayout ret, MemoryLayout... args) {
    return LINKER.downcallHandle(
        lib.find(name).orElseThrow(() -> new UnsupportedOperationException("no " + name)),
        FunctionDescriptor.of(ret, args));
  }

  private static MethodHandle errnoFn(
      SymbolLookup lib, String name, MemoryLayout ret, MemoryLayout... args) {
    return LINKER.downcallHandle(
        lib.find(name).orElseThrow(() -> new UnsupportedOperationException("no " + name)),
        FunctionDescriptor.of(ret, args),
        CAPTURE);
  }

  /** Why the calls cannot be made here (not Linux, no native access), or empty if they can. */
  public static Optional<String> unavailable() {
    return UNAVAILABLE == null ? Optional.empty() : Optional.of(String.valueOf(UNAVAILABLE));
  }

  /** A failed call: {@link #errno()} says why. */
  public static final class PosixException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int errno;

    public PosixException(String call, int errno) {
      super(call + ": " + strerror(errno));
      this.errno = errno;
    }

    public int errno() {
      return errno;
    }
  }

  /** The usual name of an error number, for messages. */
  public static String strerror(int errno) {
    return switch (errno) {
      case 1 -> "operation not permitted (EPERM)";
      case 2 -> "no such file or directory (ENOENT)";
      case ESRCH -> "no such process (ESRCH)";
      case 7 -> "argument list too long (E2BIG)";
      case 8 -> "exec format error (ENOEXEC)";
      case EAGAIN -> "resource temporarily unavailable (EAGAIN)";
      case ENOMEM -> "out of memory (ENOMEM)";
      case 13 -> "permission denied (EACCES)";
      case 20 -> "not a directory (ENOTDIR)";
      case 22 -> "invalid argument (EINVAL)";
      case ENFILE -> "too many open files in the system (ENFILE)";
      case EMFILE -> "too many open files (EMFILE)";
      default -> "errno " + errno;
    };
  }

  private static int errno(MemorySegment state) {
    return (int) ERRNO.get(state, 0L);
  }

  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException(t);
  }

  /**
   * Starts a process with {@code posix_spawn}.
   *
   * @return the pid
   */
  public static int spawn(Start s) throws PosixException {
    Path path = s.path();
    List<String> argv = s.argv();
    Map<String, String> env = s.env();
    Path cwd = s.cwd();
    int stdin = s.stdin();
    int stdout = s.stdout();
    int stderr = s.stderr();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment fa = arena.allocate(FILE_ACTIONS_SIZE, 16);
      MemorySegment attr = arena.allocate(SPAWNATTR_SIZE, 16);
      check("posix_spawn_file_actions_init", (int) FA_INIT.invokeExact(fa));
      check("posix_spawnattr_init", (int) ATTR_INIT.invokeExact(attr));
      try {
        if (stdin < 0) {
          check(
              "posix_spawn_file_actions_addopen",
              (int) FA_OPEN.invokeExact(fa, 0, arena.allocateFrom("/dev/null"), O_RDONLY, 0));
        } else {
          check("posix_spawn_file_actions_adddup2", (int) FA_DUP2.invokeExact(fa, stdin, 0));
        }
        check("posix_spawn_file_actions_adddup2", (int) FA_DUP2.invokeExact(fa, stdout, 1));
        // stderr the same pipe as stdout: fd 2 a copy of fd 1, one stream in the written order.
        int errFrom = stderr == stdout ? 1 : stderr;
        check("posix_spawn_file_actions_adddup2", (int) FA_DUP2.invokeExact(fa, errFrom, 2));
        if (FA_CLOSEFROM != null) {
          check("posix_spawn_file_actions_addclosefrom_np", (int) FA_CLOSEFROM.invokeExact(fa, 3));
        }
        if (cwd != null) {
          check(
              "posix_spawn_file_actions_addchdir_np",
              (int) FA_CHDIR.invokeExact(fa, arena.allocateFrom(cwd.toString())));
        }
        MemorySegment none = arena.allocate(SIGSET_SIZE, 8);
        MemorySegment all = arena.allocate(SIGSET_SIZE, 8);
        int rc = (int) SIGEMPTYSET.invokeExact(none);
        rc = (int) SIGFILLSET.invokeExact(all);
        rc = (int) SIGDELSET.invokeExact(all, 9);
        rc = (int) SIGDELSET.invokeExact(all, 19);
        check("posix_spawnattr_setsigmask", (int) ATTR_SETSIGMASK.invokeExact(attr, none));
        check("posix_spawnattr_setsigdefault", (int) ATTR_SETSIGDEFAULT.invokeExact(attr, all));
        check(
            "posix_spawnattr_setflags",
            (int)
                ATTR_SETFLAGS.invokeExact(
                    attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
        MemorySegment argvp = strings(arena, argv);
        MemorySegment envp = environment(arena, env);
        MemorySegment pid = arena.allocate(JAVA_INT);
        int err =
            (int)
                POSIX_SPAWN.invokeExact(
                    pid, arena.allocateFrom(path.toString()), fa, attr, argvp, envp);
        if (err != 0) {
          throw new PosixException("posix_spawn " + path, err);
        }
        return pid.get(JAVA_INT, 0);
      } finally {
        int rc = (int) FA_DESTROY.invokeExact(fa);
        rc = (int) ATTR_DESTROY.invokeExact(attr);
      }
    } catch (PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static void check(String call, int err) throws PosixException {
    if (err != 0) {
      throw new PosixException(call, err);
    }
  }

  /** An environment as a NULL-terminated array of {@code NAME=value} C strings. */
  static MemorySegment environment(Arena arena, Map<String, String> env) {
    List<String> list = new java.util.ArrayList<>(env.size());
    for (Map.Entry<String, String> e : env.entrySet()) {
      list.add(e.getKey() + "=" + e.getValue());
    }
    return strings(arena, list);
  }

  /**
   * A NULL-terminated array of C strings, all in one block of the arena: one allocation for the
   * whole environment of a launch rather than one per variable.
   */
  static MemorySegment strings(Arena arena, List<String> values) {
    byte[][] bytes = new byte[values.size()][];
    long total = 0;
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = values.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      total += bytes[i].length + 1L;
    }
    MemorySegment block = arena.allocate(Math.max(1, total)); // zeroed: every string ends in NUL
    MemorySegment array = arena.allocate(ADDRESS, bytes.length + 1L);
    long at = 0;
    for (int i = 0; i < bytes.length; i++) {
      MemorySegment.copy(bytes[i], 0, block, JAVA_BYTE, at, bytes[i].length);
      array.setAtIndex(ADDRESS, i, block.asSlice(at));
      at += bytes[i].length + 1L;
    }
    array.setAtIndex(ADDRESS, bytes.length, MemorySegment.NULL);
    return array;
  }

  /**
   * A pipe, both ends close-on-exec; the end at {@code nonBlockingEnd} (0 read, 1 write, -1 none)
   * is non-blocking.
   *
   * @return {read fd, write fd}
   */
  public static int[] pipe(int nonBlockingEnd) throws PosixException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment fds = arena.allocate(JAVA_INT, 2);
      MemorySegment st = arena.allocate(CALL_STATE);
      if ((int) PIPE2.invokeExact(st, fds, O_CLOEXEC) != 0) {
        throw new PosixException("pipe2", errno(st));
      }
      int[] p = {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
      if (nonBlockingEnd >= 0) {
        int fd = p[nonBlockingEnd];
        int flags = (int) FCNTL.invokeExact(st, fd, F_GETFL, 0);
        if (flags < 0 || (int) FCNTL.invokeExact(st, fd, F_SETFL, flags | O_NONBLOCK) < 0) {
          int e = errno(st);
          close(p[0]);
          close(p[1]);
          throw new PosixException("fcntl", e);
        }
      }
      return p;
    } catch (PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** A pidfd for {@code pid} (close-on-exec), or {@code -errno}. */
  public static int pidfdOpen(int pid) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      long r = (long) SYSCALL2.invokeExact(st, SYS_PIDFD_OPEN, (long) pid, 0L);
      return r < 0 ? -errno(st) : (int) r;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** How a child ended: {@code code} is {@link #CLD_EXITED}, {@link #CLD_KILLED} or dumped. */
  public record Exit(int code, int status) {
    /** The exit code, or 0 if a signal ended it. */
    public int exitCode() {
      return code == CLD_EXITED ? status : 0;
    }

    /** The signal that ended it, or 0 if it exited. */
    public int signal() {
      return code == CLD_EXITED ? 0 : status;
    }
  }

  /**
   * Reaps the child of a pidfd if it has ended ({@code waitid(P_PIDFD, WEXITED | WNOHANG)}).
   *
   * @return how it ended, or {@code null} if it runs still (or was reaped already: {@code ECHILD})
   */
  public static Exit reap(int pidfd) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      MemorySegment info = arena.allocate(SIGINFO_SIZE, 8);
      int r = (int) WAITID.invokeExact(st, P_PIDFD, pidfd, info, WEXITED | WNOHANG);
      if (r != 0 || info.get(JAVA_INT, 16) == 0) {
        return null;
      }
      return new Exit(info.get(JAVA_INT, 8), info.get(JAVA_INT, 24));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Reaps the child {@code pid} if it has ended ({@code waitid(P_PID, WEXITED | WNOHANG)}): for the
   * orphans a subreaper adopts, which nobody watches with a pidfd. True if it was reaped.
   */
  public static boolean reapPid(int pid) {
    return reapChild(pid) != null;
  }

  /**
   * Reaps the child {@code pid} if it has ended ({@code waitid(P_PID, WEXITED | WNOHANG)}).
   *
   * @return how it ended, or {@code null} if it runs still
   */
  public static Exit reapChild(int pid) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      MemorySegment info = arena.allocate(SIGINFO_SIZE, 8);
      int r = (int) WAITID.invokeExact(st, P_PID, pid, info, WEXITED | WNOHANG);
      if (r != 0 || info.get(JAVA_INT, 16) != pid) {
        return null;
      }
      return new Exit(info.get(JAVA_INT, 8), info.get(JAVA_INT, 24));
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * A child of this process that has ended and waits to be reaped, without reaping it ({@code
   * waitid(P_ALL, WEXITED | WNOHANG | WNOWAIT)}); 0 if there is none.
   */
  public static int peekZombie() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      MemorySegment info = arena.allocate(SIGINFO_SIZE, 8);
      int r = (int) WAITID.invokeExact(st, P_ALL, 0, info, WEXITED | WNOHANG | WNOWAIT);
      return r == 0 ? info.get(JAVA_INT, 16) : 0;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code kill(pid, sig)}: 0, or {@code -errno}. A negative pid names a process group. */
  public static int kill(int pid, int sig) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      return (int) KILL.invokeExact(st, pid, sig) == 0 ? 0 : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void close(int fd) {
    if (fd < 0) {
      return;
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      int r = (int) CLOSE.invokeExact(st, fd);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code read(2)} into {@code buf}: the count, 0 at end of file, or {@code -errno}. */
  public static long read(int fd, MemorySegment buf, MemorySegment callState) {
    try {
      long n = (long) READ.invokeExact(callState, fd, buf, buf.byteSize());
      return n >= 0 ? n : -errno(callState);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code write(2)} of {@code buf}: the count, or {@code -errno}. */
  public static long write(int fd, MemorySegment buf, MemorySegment callState) {
    try {
      long n = (long) WRITE.invokeExact(callState, fd, buf, buf.byteSize());
      return n >= 0 ? n : -errno(callState);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code send(2)} flags: never block, and no SIGPIPE for a peer that has gone. */
  private static final int MSG_DONTWAIT_NOSIGNAL = 0x40 | 0x4000;

  /**
   * {@code send(2)} of {@code bytes[from..]} on a socket without blocking (and without SIGPIPE),
   * straight from the array: the count sent, or {@code -errno} ({@code -EAGAIN}: the socket's
   * buffer is full).
   */
  public static long sendNow(int fd, byte[] bytes, int from, MemorySegment callState) {
    try {
      long n =
          (long)
              SEND.invokeExact(
                  callState,
                  fd,
                  MemorySegment.ofArray(bytes).asSlice(from),
                  (long) (bytes.length - from),
                  MSG_DONTWAIT_NOSIGNAL);
      return n >= 0 ? n : -errno(callState);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** Memory for the errno of {@link #read} and {@link #write}. */
  public static MemorySegment callState(Arena arena) {
    return arena.allocate(CALL_STATE);
  }

  public static int epollCreate() throws PosixException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      int fd = (int) EPOLL_CREATE1.invokeExact(st, O_CLOEXEC);
      if (fd < 0) {
        throw new PosixException("epoll_create1", errno(st));
      }
      return fd;
    } catch (PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** Adds ({@code add}) or changes the events {@code fd} is watched for; 0 or {@code -errno}. */
  public static int epollCtl(int epfd, boolean add, int fd, int events, long data) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      MemorySegment ev = arena.allocate(EPOLL_EVENT_SIZE, 4);
      ev.set(JAVA_INT, 0, events);
      ev.set(JAVA_LONG_UNALIGNED, EPOLL_DATA_OFFSET, data);
      int r = (int) EPOLL_CTL.invokeExact(st, epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, ev);
      return r == 0 ? 0 : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** Stops watching {@code fd}. */
  public static void epollDel(int epfd, int fd) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      int r = (int) EPOLL_CTL.invokeExact(st, epfd, EPOLL_CTL_DEL, fd, MemorySegment.NULL);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final java.lang.foreign.ValueLayout.OfLong JAVA_LONG_UNALIGNED =
      JAVA_LONG.withByteAlignment(1);

  /**
   * Waits for events (blocks up to {@code timeoutMs}; -1 forever); the number ready, or {@code
   * -errno}. Read them with {@link #eventMask} and {@link #eventData}.
   */
  public static int epollWait(int epfd, MemorySegment events, int max, int timeoutMs) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      int n = (int) EPOLL_WAIT.invokeExact(st, epfd, events, max, timeoutMs);
      return n >= 0 ? n : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static int eventMask(MemorySegment events, int i) {
    return events.get(JAVA_INT, i * EPOLL_EVENT_SIZE);
  }

  public static long eventData(MemorySegment events, int i) {
    return events.get(JAVA_LONG_UNALIGNED, i * EPOLL_EVENT_SIZE + EPOLL_DATA_OFFSET);
  }

  /** A non-blocking, close-on-exec eventfd (to wake a poller). */
  public static int eventfd() throws PosixException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      int fd = (int) EVENTFD.invokeExact(st, 0, O_CLOEXEC | O_NONBLOCK);
      if (fd < 0) {
        throw new PosixException("eventfd", errno(st));
      }
      return fd;
    } catch (PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Makes this process the reaper of its orphaned descendants ({@code PR_SET_CHILD_SUBREAPER}), or
   * no longer; 0 or {@code -errno}.
   */
  public static int becomeSubreaper(boolean on) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      return (int) PRCTL.invokeExact(st, PR_SET_CHILD_SUBREAPER, on ? 1L : 0L) == 0
          ? 0
          : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** The soft and hard limit on open files. */
  public static long[] fileLimit() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      MemorySegment rl = arena.allocate(JAVA_LONG, 2);
      if ((int) GETRLIMIT.invokeExact(st, RLIMIT_NOFILE, rl) != 0) {
        return new long[] {1024, 1024};
      }
      return new long[] {rl.getAtIndex(JAVA_LONG, 0), rl.getAtIndex(JAVA_LONG, 1)};
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Raises the limit on open files as far as this process may: both limits to {@code want} if it is
   * privileged (CAP_SYS_RESOURCE), else the soft limit to the hard one. Returns the soft limit now.
   */
  public static long raiseFileLimit(long want) {
    long[] l = fileLimit();
    if (want > l[1] && setFileLimit(want, want)) {
      return want;
    }
    if (l[0] < l[1] && setFileLimit(l[1], l[1])) {
      return l[1];
    }
    return l[0];
  }

  private static boolean setFileLimit(long soft, long hard) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(CALL_STATE);
      MemorySegment rl = arena.allocate(JAVA_LONG, 2);
      rl.setAtIndex(JAVA_LONG, 0, soft);
      rl.setAtIndex(JAVA_LONG, 1, hard);
      return (int) SETRLIMIT.invokeExact(st, RLIMIT_NOFILE, rl) == 0;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }
}
