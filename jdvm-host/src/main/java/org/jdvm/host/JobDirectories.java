package org.jdvm.host;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The temporary directories of jobs ({@code pmix.tmpdir}, {@code pmix.nsdir}, {@code pmix.pdir};
 * docs/protocol.md "Job directories"): the DVM's scratch directory for the DVM, {@code
 * <scratch>/<nspace>} for a job and {@code <nsdir>/<rank>} for each of its processes.
 *
 * <p>jdvm creates a job's directory and a process's own when the process asks for its job data
 * (before {@code PMIx_Init} returns), and removes the job's directory with everything in it when
 * the job ends ({@code pmix.tdir.rmclean} is true, so Open MPI leaves them to jdvm). Each process
 * is also told to keep Open MPI's shared-memory segment in its own directory ({@code
 * LaunchEnvironment}): Open MPI names the segment by host name, job and local rank, so ranks of one
 * job on two virtual nodes of one host would otherwise share a file; this way a killed job's
 * segments go with its directory too.
 *
 * <p>I/O: never on the controller thread.
 */
public final class JobDirectories {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server");

  private final Path root;

  public JobDirectories(Path root) {
    this.root = root.toAbsolutePath();
  }

  public Path root() {
    return root;
  }

  public Path nsdir(String nspace) {
    if (nspace.isEmpty() || nspace.contains("/") || nspace.equals(".") || nspace.equals("..")) {
      throw new IllegalArgumentException("not a namespace to name a directory by: " + nspace);
    }
    return root.resolve(nspace);
  }

  public Path procdir(String nspace, int rank) {
    return nsdir(nspace).resolve(Integer.toUnsignedString(rank));
  }

  /**
   * Whether {@code path} is inside the scratch directory (a job's or a process's directory): one
   * jdvm chose, never a user. Open MPI's {@code MPI_Comm_spawn} passes the parent's choice on to
   * its children in their environment (docs/wireup.md "Dynamic processes").
   */
  public boolean contains(String path) {
    if (path == null || path.isEmpty()) {
      return false;
    }
    try {
      Path p = Path.of(path).toAbsolutePath().normalize();
      return p.startsWith(root) && !p.equals(root);
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  /** Creates the job's and the process's directories (owner only); logs a failure. */
  public void create(String nspace, int rank) {
    try {
      Path proc = procdir(nspace, rank);
      if (!Files.isDirectory(proc)) {
        Files.createDirectories(
            proc,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
    } catch (IOException | UnsupportedOperationException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot create the directory of " + nspace + ": " + e);
    }
  }

  /** Removes the job's directory and everything in it; logs a failure. */
  public void remove(String nspace) {
    removeTree(nsdir(nspace));
  }

  /** Removes {@code dir} and everything in it, if it exists; logs a failure. */
  public static void removeTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.deleteIfExists(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot remove " + dir + ": " + e);
    }
  }
}
