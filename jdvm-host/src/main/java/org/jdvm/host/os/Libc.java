package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * The C library's functions {@link Posix} and {@link PosixSpawn} call, linked once through the
 * foreign-function API. If any of them cannot be linked (not Linux, no native access, a function
 * missing), {@link #UNAVAILABLE} says why and the handles from that one on are {@code null}.
 */
final class Libc {
  static final Linker LINKER = Linker.nativeLinker();
  static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
  static final VarHandle ERRNO =
      CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
  private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

  static final MethodHandle POSIX_SPAWN;
  static final MethodHandle FA_INIT;
  static final MethodHandle FA_DESTROY;
  static final MethodHandle FA_DUP2;
  static final MethodHandle FA_OPEN;
  static final MethodHandle FA_CHDIR;
  static final MethodHandle FA_CLOSEFROM;
  static final MethodHandle ATTR_INIT;
  static final MethodHandle ATTR_DESTROY;
  static final MethodHandle ATTR_SETFLAGS;
  static final MethodHandle ATTR_SETSIGMASK;
  static final MethodHandle ATTR_SETSIGDEFAULT;
  static final MethodHandle SIGEMPTYSET;
  static final MethodHandle SIGFILLSET;
  static final MethodHandle SIGDELSET;
  static final MethodHandle PIPE2;
  static final MethodHandle FCNTL;
  static final MethodHandle SYSCALL2;
  static final MethodHandle WAITID;
  static final MethodHandle KILL;
  static final MethodHandle CLOSE;
  static final MethodHandle READ;
  static final MethodHandle WRITE;
  static final MethodHandle EPOLL_CREATE1;
  static final MethodHandle EPOLL_CTL;
  static final MethodHandle EPOLL_WAIT;
  static final MethodHandle EVENTFD;
  static final MethodHandle PRCTL;
  static final MethodHandle GETRLIMIT;
  static final MethodHandle SETRLIMIT;
  static final MethodHandle SEND;
  static final MethodHandle SYSCALL5;
  static final MethodHandle GETRUSAGE;

  /** Why the functions cannot be called here, or {@code null} when they can. */
  static final Throwable UNAVAILABLE;

  static {
    MethodHandle[] h = new MethodHandle[33];
    Throwable failure = null;
    try {
      if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
        throw new UnsupportedOperationException("not Linux");
      }
      SymbolLookup libc = LINKER.defaultLookup();
      linkSpawn(libc, h);
      linkCalls(libc, h);
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
    SYSCALL5 = h[31];
    GETRUSAGE = h[32];
  }

  private Libc() {}

  /** {@code posix_spawn} and what it is given with: {@code h[0..14]}. */
  private static void linkSpawn(SymbolLookup libc, MethodHandle[] h) {
    h[0] = fn(libc, "posix_spawn", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
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
  }

  /** The calls that report {@code errno}: {@code h[15..32]}. */
  private static void linkCalls(SymbolLookup libc, MethodHandle[] h) {
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
    // The raw waitid(2), whose fifth argument (glibc's wrapper has none) is the reaped child's
    // rusage: what the process used, read with its exit status.
    h[31] =
        LINKER.downcallHandle(
            libc.find("syscall").orElseThrow(),
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            CAPTURE,
            Linker.Option.firstVariadicArg(1));
    h[32] = errnoFn(libc, "getrusage", JAVA_INT, JAVA_INT, ADDRESS);
  }

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
}
