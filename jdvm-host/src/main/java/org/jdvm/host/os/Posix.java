package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

  private static final int F_GETFL = 3;
  private static final int F_SETFL = 4;
  private static final int P_ALL = 0;
  static final int P_PID = 1;
  private static final int WNOWAIT = 0x1000000;
  static final int P_PIDFD = 3;
  static final int WEXITED = 4;
  static final int WNOHANG = 1;
  private static final int EPOLL_CTL_ADD = 1;
  private static final int EPOLL_CTL_DEL = 2;
  private static final int EPOLL_CTL_MOD = 3;
  private static final int PR_SET_CHILD_SUBREAPER = 36;
  private static final int RLIMIT_NOFILE = 7;
  private static final long SYS_PIDFD_OPEN = 434;
  static final long SIGINFO_SIZE = 128;

  private static final boolean X86 = System.getProperty("os.arch", "").matches("amd64|x86_64");

  /** {@code struct epoll_event}: 12 bytes packed on x86-64, 16 elsewhere. */
  public static final long EPOLL_EVENT_SIZE = X86 ? 12 : 16;

  private static final long EPOLL_DATA_OFFSET = X86 ? 4 : 8;

  private Posix() {}

  /** Why the calls cannot be made here (not Linux, no native access), or empty if they can. */
  public static Optional<String> unavailable() {
    return Libc.UNAVAILABLE == null
        ? Optional.empty()
        : Optional.of(String.valueOf(Libc.UNAVAILABLE));
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
    return (int) Libc.ERRNO.get(state, 0L);
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
    return PosixSpawn.spawn(s);
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      if ((int) Libc.PIPE2.invokeExact(st, fds, O_CLOEXEC) != 0) {
        throw new PosixException("pipe2", errno(st));
      }
      int[] p = {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
      if (nonBlockingEnd >= 0) {
        int fd = p[nonBlockingEnd];
        int flags = (int) Libc.FCNTL.invokeExact(st, fd, F_GETFL, 0);
        if (flags < 0 || (int) Libc.FCNTL.invokeExact(st, fd, F_SETFL, flags | O_NONBLOCK) < 0) {
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      long r = (long) Libc.SYSCALL2.invokeExact(st, SYS_PIDFD_OPEN, (long) pid, 0L);
      return r < 0 ? -errno(st) : (int) r;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * How a child ended: {@code code} is {@link #CLD_EXITED}, {@link #CLD_KILLED} or dumped; with
   * what it used, from the {@code rusage} the kernel gave with its status ({@code -1} each when not
   * read: a reap by glibc's {@code waitid}, on an architecture whose syscall number is not known
   * here).
   *
   * @param userMicros its {@code ru_utime}, microseconds
   * @param systemMicros its {@code ru_stime}, microseconds
   * @param maxRssKiB its {@code ru_maxrss}, KiB
   */
  public record Exit(int code, int status, long userMicros, long systemMicros, long maxRssKiB) {
    public Exit(int code, int status) {
      this(code, status, -1, -1, -1);
    }

    /** The exit code, or 0 if a signal ended it. */
    public int exitCode() {
      return code == CLD_EXITED ? status : 0;
    }

    /** The signal that ended it, or 0 if it exited. */
    public int signal() {
      return code == CLD_EXITED ? 0 : status;
    }

    /** Whether the kernel's rusage came with it. */
    public boolean hasUsage() {
      return maxRssKiB >= 0;
    }
  }

  /**
   * Reaps the child of a pidfd if it has ended ({@code waitid(P_PIDFD, WEXITED | WNOHANG)}).
   *
   * @return how it ended, or {@code null} if it runs still (or was reaped already: {@code ECHILD})
   */
  public static Exit reap(int pidfd) {
    return WaitidUsage.reap(P_PIDFD, pidfd);
  }

  /**
   * This process's own peak resident set, KiB ({@code getrusage(RUSAGE_SELF)}'s {@code ru_maxrss}).
   * A child born sharing its memory (the C starter's {@code clone3}, {@code posix_spawn}) has it
   * recorded as its own peak when it execs (Linux keeps the larger of the old and the new memory's
   * peak in {@code ru_maxrss}), so a child's peak at or below it is not the child's ({@code
   * host.Rusage}).
   */
  public static long selfMaxRssKiB() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment ru = arena.allocate(144, 8);
      int r = (int) Libc.GETRUSAGE.invokeExact(st, 0, ru);
      return r == 0 ? ru.get(JAVA_LONG, 32) : -1;
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
    return WaitidUsage.reap(P_PID, pid);
  }

  /**
   * A child of this process that has ended and waits to be reaped, without reaping it ({@code
   * waitid(P_ALL, WEXITED | WNOHANG | WNOWAIT)}); 0 if there is none.
   */
  public static int peekZombie() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment info = arena.allocate(SIGINFO_SIZE, 8);
      int r = (int) Libc.WAITID.invokeExact(st, P_ALL, 0, info, WEXITED | WNOHANG | WNOWAIT);
      return r == 0 ? info.get(JAVA_INT, 16) : 0;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code kill(pid, sig)}: 0, or {@code -errno}. A negative pid names a process group. */
  public static int kill(int pid, int sig) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      return (int) Libc.KILL.invokeExact(st, pid, sig) == 0 ? 0 : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  public static void close(int fd) {
    if (fd < 0) {
      return;
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      int r = (int) Libc.CLOSE.invokeExact(st, fd);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code read(2)} into {@code buf}: the count, 0 at end of file, or {@code -errno}. */
  public static long read(int fd, MemorySegment buf, MemorySegment callState) {
    try {
      long n = (long) Libc.READ.invokeExact(callState, fd, buf, buf.byteSize());
      return n >= 0 ? n : -errno(callState);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code write(2)} of {@code buf}: the count, or {@code -errno}. */
  public static long write(int fd, MemorySegment buf, MemorySegment callState) {
    try {
      long n = (long) Libc.WRITE.invokeExact(callState, fd, buf, buf.byteSize());
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
              Libc.SEND.invokeExact(
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
    return arena.allocate(Libc.CALL_STATE);
  }

  public static int epollCreate() throws PosixException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      int fd = (int) Libc.EPOLL_CREATE1.invokeExact(st, O_CLOEXEC);
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment ev = arena.allocate(EPOLL_EVENT_SIZE, 4);
      ev.set(JAVA_INT, 0, events);
      ev.set(JAVA_LONG_UNALIGNED, EPOLL_DATA_OFFSET, data);
      int r =
          (int) Libc.EPOLL_CTL.invokeExact(st, epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, ev);
      return r == 0 ? 0 : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** Stops watching {@code fd}. */
  public static void epollDel(int epfd, int fd) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      int r = (int) Libc.EPOLL_CTL.invokeExact(st, epfd, EPOLL_CTL_DEL, fd, MemorySegment.NULL);
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      int n = (int) Libc.EPOLL_WAIT.invokeExact(st, epfd, events, max, timeoutMs);
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      int fd = (int) Libc.EVENTFD.invokeExact(st, 0, O_CLOEXEC | O_NONBLOCK);
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      return (int) Libc.PRCTL.invokeExact(st, PR_SET_CHILD_SUBREAPER, on ? 1L : 0L) == 0
          ? 0
          : -errno(st);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** The soft and hard limit on open files. */
  public static long[] fileLimit() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment rl = arena.allocate(JAVA_LONG, 2);
      if ((int) Libc.GETRLIMIT.invokeExact(st, RLIMIT_NOFILE, rl) != 0) {
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
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment rl = arena.allocate(JAVA_LONG, 2);
      rl.setAtIndex(JAVA_LONG, 0, soft);
      rl.setAtIndex(JAVA_LONG, 1, hard);
      return (int) Libc.SETRLIMIT.invokeExact(st, RLIMIT_NOFILE, rl) == 0;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }
}
