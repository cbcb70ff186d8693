package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Reaping with the child's {@code rusage} ({@link Posix#reap}, {@link Posix#reapChild}): the raw
 * {@code waitid(2)} syscall, whose fifth argument glibc's wrapper leaves out, so that what a
 * process used is read with its exit status and nothing else is needed (no {@code /proc} read
 * before the reap, which would race the exit; no {@code wait4}, which cannot take a pidfd).
 */
final class WaitidUsage {
  private WaitidUsage() {}

  /** {@code waitid}'s syscall number here, or -1 where it is not known (glibc's wrapper then). */
  private static final long SYS_WAITID =
      switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 247;
        case "aarch64" -> 95;
        default -> -1;
      };

  /** The size of {@code struct rusage} on LP64 Linux; {@code ru_maxrss} is at byte 32. */
  private static final long RUSAGE_SIZE = 144;

  /**
   * {@code waitid(idtype, id, Posix.WEXITED | Posix.WNOHANG)} through the raw syscall, whose fifth
   * argument is the child's rusage: its CPU times ({@code ru_utime}, {@code ru_stime}) and peak
   * resident set ({@code ru_maxrss}), its own and its waited-for descendants', as {@code wait4}
   * gives them.
   */
  static Posix.Exit reap(int idtype, int id) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment info = arena.allocate(Posix.SIGINFO_SIZE, 8);
      if (SYS_WAITID < 0) {
        int r = (int) Libc.WAITID.invokeExact(st, idtype, id, info, Posix.WEXITED | Posix.WNOHANG);
        return r != 0 || info.get(JAVA_INT, 16) == 0
            ? null
            : new Posix.Exit(info.get(JAVA_INT, 8), info.get(JAVA_INT, 24));
      }
      MemorySegment ru = arena.allocate(RUSAGE_SIZE, 8);
      long r =
          (long)
              Libc.SYSCALL5.invokeExact(
                  st,
                  SYS_WAITID,
                  (long) idtype,
                  (long) id,
                  info.address(),
                  (long) (Posix.WEXITED | Posix.WNOHANG),
                  ru.address());
      if (r != 0 || info.get(JAVA_INT, 16) == 0) {
        return null;
      }
      return new Posix.Exit(
          info.get(JAVA_INT, 8),
          info.get(JAVA_INT, 24),
          micros(ru, 0),
          micros(ru, 16),
          ru.get(JAVA_LONG, 32));
    } catch (Throwable t) {
      throw Posix.rethrow(t);
    }
  }

  private static long micros(MemorySegment timeval, long offset) {
    return timeval.get(JAVA_LONG, offset) * 1_000_000L + timeval.get(JAVA_LONG, offset + 8);
  }
}
