package org.jdvm.host;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Files and directories a job registers for removal when it ends ({@code PMIx_Job_control} with
 * {@code PMIX_REGISTER_CLEANUP[_DIR]}, docs/wireup.md §c.9; docs/protocol.md "Cleanup"), and the
 * rule that keeps the removal where such files belong. Open MPI registers its session directory and
 * its shared-memory segment; only the DVM removes them when ranks are killed (after {@code
 * MPI_Abort}, say).
 *
 * <p>A path is accepted only if it is absolute, has no {@code .} or {@code ..} element, and lies in
 * one of the allowed places:
 *
 * <ul>
 *   <li>a file of {@code /dev/shm} named {@code vader_segment.*} or {@code sm_segment.*} (Open
 *       MPI's shared-memory segments);
 *   <li>inside {@code <tmp>/ompi.*}{@code /pid.*} (an Open MPI 4 session directory of one process),
 *       where {@code <tmp>} is {@code /tmp} or the DVM's {@code TMPDIR};
 *   <li>strictly inside the DVM's own scratch directory, which jobs get as their temporary
 *       directories.
 * </ul>
 *
 * No element of the path below the allowed place may be a symbolic link, and removal never follows
 * one: a link found inside a directory is removed itself, never what it points to. Nothing outside
 * the allowed places is ever removed.
 */
public final class Cleanup {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  /** Longest path accepted. */
  public static final int MAX_PATH_CHARS = 4096;

  /** Shared-memory segment names Open MPI registers (4.1: vader; 5: sm). */
  private static final List<String> SHM_PREFIXES = List.of("vader_segment.", "sm_segment.");

  /**
   * One registration.
   *
   * @param path what to remove
   * @param directory a directory (else a file)
   * @param recursive remove what the directory holds too ({@code PMIX_CLEANUP_RECURSIVE})
   * @param leaveTop keep the directory itself ({@code PMIX_CLEANUP_LEAVE_TOPDIR})
   * @param emptyOnly remove directories only when empty ({@code PMIX_CLEANUP_EMPTY})
   * @param ignore paths (absolute) or file names never to remove ({@code PMIX_CLEANUP_IGNORE})
   * @param keep this registration only names {@code path} as never to be removed (Open MPI
   *     registers its output files so), whatever the job's other registrations say
   */
  public record Registration(
      Path path,
      boolean directory,
      boolean recursive,
      boolean leaveTop,
      boolean emptyOnly,
      List<String> ignore,
      boolean keep) {
    public Registration {
      Objects.requireNonNull(path, "path");
      ignore = List.copyOf(ignore);
    }

    /** The same registration, also leaving {@code more} in place. */
    public Registration ignoring(List<String> more) {
      List<String> all = new ArrayList<>(ignore);
      all.addAll(more);
      return new Registration(path, directory, recursive, leaveTop, emptyOnly, all, keep);
    }
  }

  private final Path shm;
  private final List<Path> tmpBases;
  private final Path scratch;

  /**
   * @param shm where shared-memory segments live ({@code /dev/shm})
   * @param tmpBases the temporary-directory bases Open MPI may put session directories in
   * @param scratch the DVM's own scratch directory, or {@code null}
   */
  public Cleanup(Path shm, List<Path> tmpBases, Path scratch) {
    this.shm = shm;
    this.tmpBases = List.copyOf(tmpBases);
    this.scratch = scratch;
  }

  /** The places of this host: {@code /dev/shm}, {@code /tmp} and {@code $TMPDIR}, the scratch. */
  public static Cleanup forThisHost(Path scratch) {
    List<Path> bases = new ArrayList<>(List.of(Path.of("/tmp")));
    String tmp = System.getenv("TMPDIR");
    if (tmp != null && tmp.startsWith("/") && !Path.of(tmp).equals(bases.get(0))) {
      bases.add(Path.of(tmp));
    }
    return new Cleanup(Path.of("/dev/shm"), bases, scratch);
  }

  /** Why a path may not be registered, or {@code null} when it may. */
  public String refusal(String path) {
    if (path == null || path.isEmpty() || path.length() > MAX_PATH_CHARS) {
      return "no path, or a path longer than " + MAX_PATH_CHARS + " characters";
    }
    Path p = Path.of(path);
    if (!p.isAbsolute()) {
      return path + " is not absolute";
    }
    for (Path element : p) {
      String e = element.toString();
      if (e.equals(".") || e.equals("..")) {
        return path + " has a . or .. element";
      }
    }
    Path root = allowedRoot(p);
    if (root == null) {
      return path + " is outside the places jdvm cleans (docs/protocol.md \"Cleanup\")";
    }
    return linkBelow(root, p) ? path + " goes through a symbolic link" : null;
  }

  /** The allowed place the path lies in, or {@code null}. */
  private Path allowedRoot(Path p) {
    if (p.getParent() != null && p.getParent().equals(shm)) {
      String name = p.getFileName().toString();
      return SHM_PREFIXES.stream().anyMatch(name::startsWith) ? shm : null;
    }
    for (Path base : tmpBases) {
      if (p.startsWith(base) && p.getNameCount() >= base.getNameCount() + 2) {
        String session = p.getName(base.getNameCount()).toString();
        String proc = p.getName(base.getNameCount() + 1).toString();
        if (session.startsWith("ompi.") && proc.startsWith("pid.")) {
          return base;
        }
      }
    }
    if (scratch != null && p.startsWith(scratch) && !p.equals(scratch)) {
      return scratch;
    }
    return null;
  }

  /** Whether an existing element strictly between {@code root} and {@code p} is a link. */
  private static boolean linkBelow(Path root, Path p) {
    Path at = root;
    for (int i = root.getNameCount(); i < p.getNameCount() - 1; i++) {
      at = at.resolve(p.getName(i).toString());
      if (Files.isSymbolicLink(at)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Removes what a registration names, if it is still allowed (checked again: the tree may have
   * changed since). Failures are logged and skipped; this never throws for a file system error.
   */
  public void remove(Registration r) {
    if (r.keep()) {
      return;
    }
    String why = refusal(r.path().toString());
    if (why != null) {
      LOG.log(System.Logger.Level.WARNING, "cleanup skipped: " + why);
      return;
    }
    Path p = r.path();
    try {
      if (!r.directory()) {
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !ignored(r, p)) {
          Files.deleteIfExists(p);
        }
        return;
      }
      if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        return;
      }
      if (r.recursive() && !r.emptyOnly()) {
        Files.walkFileTree(p, new Remover(r));
      } else if (!r.leaveTop()) {
        deleteIfEmpty(p);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "cleanup of " + p + " stopped: " + e);
    }
  }

  private static boolean ignored(Registration r, Path p) {
    for (String i : r.ignore()) {
      if (i.startsWith("/") ? p.equals(Path.of(i)) : p.getFileName().toString().equals(i)) {
        return true;
      }
    }
    return false;
  }

  private static void deleteIfEmpty(Path dir) {
    try {
      Files.delete(dir);
    } catch (IOException e) {
      // Not empty (something was ignored or appeared), or already gone: leave it.
    }
  }

  /** Depth-first removal that never follows a link and skips what is ignored. */
  private static final class Remover extends SimpleFileVisitor<Path> {
    private final Registration r;

    Remover(Registration r) {
      this.r = r;
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
      return ignored(r, dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
      if (!ignored(r, file)) {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          // Leave it; its directory then stays too.
        }
      }
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException e) {
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path dir, IOException e) {
      if (!dir.equals(r.path()) || !r.leaveTop()) {
        deleteIfEmpty(dir);
      }
      return FileVisitResult.CONTINUE;
    }
  }
}
