package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.BitSet;

/**
 * The calling thread's cpu affinity ({@code sched_getaffinity(2)}, {@code sched_setaffinity(2)}
 * with pid 0): how a process started by {@code posix_spawn} is bound, since the child inherits the
 * affinity of the thread that spawns it. {@link NativeSpawn} binds its child itself, before exec.
 */
public final class Affinity {
  private static final int EINVAL = 22;
  private static final MethodHandle GET;
  private static final MethodHandle SET;

  static {
    MethodHandle g = null;
    MethodHandle s = null;
    if (Libc.UNAVAILABLE == null) {
      var libc = Libc.LINKER.defaultLookup();
      var opt = Linker.Option.captureCallState("errno");
      FunctionDescriptor fd = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS);
      g = Libc.LINKER.downcallHandle(libc.find("sched_getaffinity").orElseThrow(), fd, opt);
      s = Libc.LINKER.downcallHandle(libc.find("sched_setaffinity").orElseThrow(), fd, opt);
    }
    GET = g;
    SET = s;
  }

  private Affinity() {}

  /** The cpus the calling thread may run on. */
  public static BitSet ofThisThread() throws Posix.PosixException {
    for (long bytes = 128; ; bytes *= 2) {
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment st = arena.allocate(Libc.CALL_STATE);
        MemorySegment mask = arena.allocate(bytes, 8);
        int rc = (int) GET.invokeExact(st, 0, bytes, mask);
        if (rc < 0) {
          int errno = (int) Libc.ERRNO.get(st, 0L);
          if (errno == EINVAL && bytes < (1 << 20)) {
            continue; // more cpus than this mask holds
          }
          throw new Posix.PosixException("sched_getaffinity", errno);
        }
        return BitSet.valueOf(mask.toArray(JAVA_LONG));
      } catch (Posix.PosixException e) {
        throw e;
      } catch (Throwable t) {
        throw Posix.rethrow(t);
      }
    }
  }

  /** Binds the calling thread to {@code cpus}; EINVAL when none of them is usable here. */
  public static void setThisThread(BitSet cpus) throws Posix.PosixException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment st = arena.allocate(Libc.CALL_STATE);
      MemorySegment mask = mask(arena, cpus);
      int rc = (int) SET.invokeExact(st, 0, mask.byteSize(), mask);
      if (rc < 0) {
        throw new Posix.PosixException("sched_setaffinity", (int) Libc.ERRNO.get(st, 0L));
      }
    } catch (Posix.PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw Posix.rethrow(t);
    }
  }

  /** A kernel cpu mask of {@code cpus}: 64-bit words, at least glibc's 1,024 bits. */
  static MemorySegment mask(Arena arena, BitSet cpus) {
    long[] words = cpus.toLongArray();
    MemorySegment m = arena.allocate(Math.max(16, words.length) * 8L, 8);
    MemorySegment.copy(words, 0, m, JAVA_LONG, 0, words.length);
    return m;
  }
}
