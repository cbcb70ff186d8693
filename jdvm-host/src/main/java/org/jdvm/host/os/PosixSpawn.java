package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * {@code posix_spawn} as {@link Posix#spawn} calls it, with what the child is given: the file
 * actions (stdin, stdout, stderr, every other descriptor closed, the working directory) and the
 * attributes (a new session, every signal at its default and none blocked); and the C string arrays
 * of an exec, which {@link NativeSpawn} passes too.
 */
final class PosixSpawn {
  private static final int POSIX_SPAWN_SETSIGDEF = 0x04;
  private static final int POSIX_SPAWN_SETSIGMASK = 0x08;
  private static final int POSIX_SPAWN_SETSID = 0x80;
  private static final long FILE_ACTIONS_SIZE = 80;
  private static final long SPAWNATTR_SIZE = 336;
  private static final long SIGSET_SIZE = 128;

  private PosixSpawn() {}

  /**
   * Starts {@code s} with {@code posix_spawn}; returns the pid. A bound start binds the calling
   * thread for the spawn, so the child inherits it, and gives the thread its own cpus back after:
   * nothing between the two calls can unmount a virtual caller from its carrier.
   */
  static int spawn(Start s) throws Posix.PosixException {
    if (s.cpus() == null) {
      return spawnAsIs(s);
    }
    java.util.BitSet own = Affinity.ofThisThread();
    Affinity.setThisThread(s.cpus());
    try {
      return spawnAsIs(s);
    } finally {
      Affinity.setThisThread(own);
    }
  }

  private static int spawnAsIs(Start s) throws Posix.PosixException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment fa = arena.allocate(FILE_ACTIONS_SIZE, 16);
      MemorySegment attr = arena.allocate(SPAWNATTR_SIZE, 16);
      check("posix_spawn_file_actions_init", (int) Libc.FA_INIT.invokeExact(fa));
      check("posix_spawnattr_init", (int) Libc.ATTR_INIT.invokeExact(attr));
      try {
        fileActions(arena, fa, s);
        attributes(arena, attr);
        MemorySegment argvp = strings(arena, s.argv());
        MemorySegment envp = environment(arena, s.env());
        MemorySegment pid = arena.allocate(JAVA_INT);
        MemorySegment path = arena.allocateFrom(s.path().toString());
        int err = (int) Libc.POSIX_SPAWN.invokeExact(pid, path, fa, attr, argvp, envp);
        if (err != 0) {
          throw new Posix.PosixException("posix_spawn " + s.path(), err);
        }
        return pid.get(JAVA_INT, 0);
      } finally {
        int rc = (int) Libc.FA_DESTROY.invokeExact(fa);
        rc = (int) Libc.ATTR_DESTROY.invokeExact(attr);
      }
    } catch (Posix.PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw Posix.rethrow(t);
    }
  }

  /**
   * stdin ({@code /dev/null} for -1), stdout and stderr (a copy of fd 1 when it is the same pipe),
   * every other descriptor closed where glibc can, and the working directory.
   */
  private static void fileActions(Arena arena, MemorySegment fa, Start s) throws Throwable {
    if (s.stdin() < 0) {
      check(
          "posix_spawn_file_actions_addopen",
          (int)
              Libc.FA_OPEN.invokeExact(fa, 0, arena.allocateFrom("/dev/null"), Posix.O_RDONLY, 0));
    } else {
      check("posix_spawn_file_actions_adddup2", (int) Libc.FA_DUP2.invokeExact(fa, s.stdin(), 0));
    }
    check("posix_spawn_file_actions_adddup2", (int) Libc.FA_DUP2.invokeExact(fa, s.stdout(), 1));
    // stderr the same pipe as stdout: fd 2 a copy of fd 1, one stream in the written order.
    int errFrom = s.stderr() == s.stdout() ? 1 : s.stderr();
    check("posix_spawn_file_actions_adddup2", (int) Libc.FA_DUP2.invokeExact(fa, errFrom, 2));
    if (Libc.FA_CLOSEFROM != null) {
      check("posix_spawn_file_actions_addclosefrom_np", (int) Libc.FA_CLOSEFROM.invokeExact(fa, 3));
    }
    if (s.cwd() != null) {
      check(
          "posix_spawn_file_actions_addchdir_np",
          (int) Libc.FA_CHDIR.invokeExact(fa, arena.allocateFrom(s.cwd().toString())));
    }
  }

  /** A new session, no signal blocked, and every signal that can be at its default action. */
  private static void attributes(Arena arena, MemorySegment attr) throws Throwable {
    MemorySegment none = arena.allocate(SIGSET_SIZE, 8);
    MemorySegment all = arena.allocate(SIGSET_SIZE, 8);
    int rc = (int) Libc.SIGEMPTYSET.invokeExact(none);
    rc = (int) Libc.SIGFILLSET.invokeExact(all);
    rc = (int) Libc.SIGDELSET.invokeExact(all, 9);
    rc = (int) Libc.SIGDELSET.invokeExact(all, 19);
    check("posix_spawnattr_setsigmask", (int) Libc.ATTR_SETSIGMASK.invokeExact(attr, none));
    check("posix_spawnattr_setsigdefault", (int) Libc.ATTR_SETSIGDEFAULT.invokeExact(attr, all));
    check(
        "posix_spawnattr_setflags",
        (int)
            Libc.ATTR_SETFLAGS.invokeExact(
                attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));
  }

  private static void check(String call, int err) throws Posix.PosixException {
    if (err != 0) {
      throw new Posix.PosixException(call, err);
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
}
