package org.jdvm.host.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Process starts through jdvm's own small native library ({@code src/main/c/jdvm_spawn.c}, built
 * with gcc into the class path when the build finds one): a {@code clone3(2)} that gives the child
 * its cgroup at birth ({@code CLONE_INTO_CGROUP}, Linux 5.7) and its pidfd ({@code CLONE_PIDFD}),
 * and reuses the child's stack rather than mapping and unmapping one per start as glibc's {@code
 * posix_spawn} does. glibc has the first two from 2.39 ({@code pidfd_spawn}, {@code
 * posix_spawnattr_setcgroup_np}); the distributions jdvm runs on today ship older ones.
 *
 * <p>The child is otherwise what {@link Posix#spawn} makes: a new session, every signal at its
 * default and unblocked, stdin, stdout and stderr as given, every other descriptor closed; a bound
 * start ({@link Start#cpus}) is bound by the child itself ({@code sched_setaffinity}) before its
 * exec.
 *
 * <p>{@link #unavailable} says why it is not used (not built: no gcc, not x86-64 Linux; loading
 * failed; {@code -Dorg.jdvm.nativeSpawn=false}); the process host then uses {@link Posix#spawn} and
 * moves each process into its cgroup after the start.
 */
public final class NativeSpawn {
  /** The system property that turns the library off (for tests of the fallback, and A/B runs). */
  public static final String DISABLE_PROPERTY = "org.jdvm.nativeSpawn";

  static final String LIBRARY = "libjdvmspawn.so";

  private static final MethodHandle SPAWN;
  private static final String UNAVAILABLE;

  static {
    MethodHandle h = null;
    String why = null;
    try {
      if (!Boolean.parseBoolean(System.getProperty(DISABLE_PROPERTY, "true"))) {
        why = "turned off by -D" + DISABLE_PROPERTY + "=false";
      } else if (Posix.unavailable().isPresent()) {
        why = Posix.unavailable().get();
      } else {
        URL url = NativeSpawn.class.getResource(LIBRARY);
        if (url == null) {
          why = LIBRARY + " is not in the build (it needs gcc on x86-64 Linux)";
        } else {
          boolean copied = !url.getProtocol().equals("file");
          Path lib = copied ? copy(url) : Path.of(url.toURI());
          SymbolLookup l;
          try {
            l = SymbolLookup.libraryLookup(lib, Arena.global());
          } finally {
            if (copied) {
              // Mapped now: the copy is not needed any more, even if this JVM is killed.
              Files.deleteIfExists(lib);
              Files.deleteIfExists(lib.getParent());
            }
          }
          h =
              Linker.nativeLinker()
                  .downcallHandle(
                      l.find("jdvm_spawn").orElseThrow(),
                      FunctionDescriptor.of(
                          JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT,
                          JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        }
      }
    } catch (Throwable t) {
      why = "cannot load " + LIBRARY + ": " + t;
      h = null;
    }
    SPAWN = h;
    UNAVAILABLE = why;
  }

  private NativeSpawn() {}

  /** Why the library is not used here, or empty when it is. */
  public static Optional<String> unavailable() {
    return Optional.ofNullable(UNAVAILABLE);
  }

  /**
   * The library out of a jar, copied into a new private directory (mode 0700, so no other local
   * user can swap it), removed once loaded.
   */
  private static Path copy(URL url) throws IOException {
    Path lib = Files.createTempDirectory("jdvm-native-").resolve(LIBRARY);
    try (InputStream in = url.openStream()) {
      Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
    }
    return lib;
  }

  /** A started process: its pid and, if one was asked for, its pidfd (else -1). */
  public record Started(int pid, int pidfd) {}

  /**
   * Starts a process as {@link Posix#spawn} does, inside the cgroup directory {@code cgroup} when
   * not {@code null}, with a pidfd when {@code withPidfd}.
   *
   * @throws Posix.PosixException with the errno of the step that failed; ENOSYS or E2BIG when this
   *     kernel has no {@code clone3}, EINVAL, EOPNOTSUPP or EBUSY when the cgroup cannot take the
   *     process
   */
  public static Started spawn(Start s, Path cgroup, boolean withPidfd) throws Posix.PosixException {
    if (SPAWN == null) {
      throw new IllegalStateException(UNAVAILABLE);
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment pid = arena.allocate(JAVA_INT);
      MemorySegment pidfd = withPidfd ? arena.allocate(JAVA_INT) : MemorySegment.NULL;
      MemorySegment dir =
          s.cwd() == null ? MemorySegment.NULL : arena.allocateFrom(s.cwd().toString());
      MemorySegment cg =
          cgroup == null ? MemorySegment.NULL : arena.allocateFrom(cgroup.toString());
      MemorySegment mask = s.cpus() == null ? MemorySegment.NULL : Affinity.mask(arena, s.cpus());
      int err =
          (int)
              SPAWN.invokeExact(
                  arena.allocateFrom(s.path().toString()),
                  PosixSpawn.strings(arena, s.argv()),
                  PosixSpawn.environment(arena, s.env()),
                  dir,
                  s.stdin(),
                  s.stdout(),
                  s.stderr(),
                  cg,
                  pid,
                  pidfd,
                  mask,
                  (int) (mask.byteSize() / 8));
      if (err != 0) {
        throw new Posix.PosixException("spawn " + s.path(), err);
      }
      return new Started(pid.get(JAVA_INT, 0), withPidfd ? pidfd.get(JAVA_INT, 0) : -1);
    } catch (Posix.PosixException e) {
      throw e;
    } catch (Throwable t) {
      throw Posix.rethrow(t);
    }
  }
}
