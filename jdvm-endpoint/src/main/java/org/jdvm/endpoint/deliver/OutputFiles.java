package org.jdvm.endpoint.deliver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * One job's output written to files by the controller, which receives every node's output (agents'
 * included), so that the files land beside the tool that asked for them (docs/cli.md "Output").
 * Layouts, the rank zero-padded to as many digits as the job's size needs, as both do:
 *
 * <ul>
 *   <li>a directory ({@code PMIX_IOF_OUTPUT_TO_DIRECTORY}): {@code DIR/JOB/rank.N/stdout} and
 *       {@code stderr}, where JOB is the namespace (libpmix 4.2.2's {@code pmix_iof_setup}), or the
 *       name the spawn gave ({@code jdvm.iof.jobdir}; {@code jdvm run --output-filename} gives
 *       {@code 1}, Open MPI 4.1's {@code DIR/1/rank.N} layout);
 *   <li>a file prefix ({@code PMIX_IOF_OUTPUT_TO_FILE}): {@code PREFIX.NSPACE.N.out} and {@code
 *       .err}.
 * </ul>
 *
 * With merged stderr there is one file, the stdout one. Files are created when a rank first writes,
 * or empty when it ends silent. Writes are synchronous, under the {@link OutputRouter}'s lock: a
 * slow disk slows the job's output, as a slow reader does.
 */
public final class OutputFiles {
  /**
   * Where a job's output is written.
   *
   * @param dir the directory, or {@code null} when {@code prefix} is given
   * @param jobDir the directory per job under {@code dir}; {@code null}: the namespace; empty: none
   * @param prefix the file prefix, or {@code null} when {@code dir} is given
   * @param merged stderr is merged into stdout
   * @param procs the job's size, for the rank's digits
   * @param fileOnly the output goes to the files only, not to the requester
   */
  public record Spec(
      Path dir, String jobDir, Path prefix, boolean merged, int procs, boolean fileOnly) {}

  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final String nspace;
  private final Spec spec;
  private final Map<Long, OutputStream> open = new HashMap<>();
  private final java.util.Set<Long> created = new java.util.HashSet<>();
  private boolean failed;

  OutputFiles(String nspace, Spec spec) {
    this.nspace = nspace;
    this.spec = spec;
  }

  boolean fileOnly() {
    return spec.fileOnly();
  }

  /** Appends {@code bytes} to the rank's file of {@code channel}. */
  void write(int rank, int channel, byte[] bytes) {
    OutputStream out = stream(rank, channel);
    if (out == null) {
      return;
    }
    try {
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      fail(e);
    }
  }

  /** The rank ended: its files exist (empty if it wrote nothing) and are closed. */
  void ended(int rank) {
    stream(rank, OutputRouter.STDOUT_CHANNEL);
    if (!spec.merged()) {
      stream(rank, OutputRouter.STDERR_CHANNEL);
    }
    close(key(rank, OutputRouter.STDOUT_CHANNEL));
    close(key(rank, OutputRouter.STDERR_CHANNEL));
  }

  /** The job retired: every file is closed. */
  void closeAll() {
    for (Long k : java.util.List.copyOf(open.keySet())) {
      close(k);
    }
  }

  /** The file of {@code rank}'s {@code channel} under this spec. */
  Path path(int rank, int channel) {
    boolean out = spec.merged() || channel == OutputRouter.STDOUT_CHANNEL;
    String n = String.format("%0" + digits(spec.procs()) + "d", rank);
    if (spec.dir() != null) {
      String job = spec.jobDir() != null ? spec.jobDir() : nspace;
      Path d = job.isEmpty() ? spec.dir() : spec.dir().resolve(job);
      return d.resolve("rank." + n).resolve(out ? "stdout" : "stderr");
    }
    return Path.of(spec.prefix() + "." + nspace + "." + n + (out ? ".out" : ".err"));
  }

  /** The digits of the job's largest rank, counted as libpmix and Open MPI count them. */
  static int digits(int procs) {
    int d = 1;
    for (int np = procs / 10; np > 0; np /= 10) {
      d++;
    }
    return d;
  }

  private OutputStream stream(int rank, int channel) {
    int ch = spec.merged() ? OutputRouter.STDOUT_CHANNEL : channel;
    long k = key(rank, ch);
    OutputStream s = open.get(k);
    if (s != null || failed) {
      return s;
    }
    Path p = path(rank, ch);
    try {
      Files.createDirectories(p.getParent());
      s =
          Files.newOutputStream(
              p,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              created.add(k) ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
      open.put(k, s);
      return s;
    } catch (IOException | RuntimeException e) {
      fail(e);
      return null;
    }
  }

  private void close(long k) {
    OutputStream s = open.remove(k);
    if (s == null) {
      return;
    }
    try {
      s.close();
    } catch (IOException e) {
      fail(e);
    }
  }

  private void fail(Exception e) {
    if (!failed) {
      failed = true;
      LOG.log(
          System.Logger.Level.WARNING,
          "job " + nspace + ": cannot write its output files, they stay as they are: " + e);
    }
  }

  private static long key(int rank, int channel) {
    return ((long) rank << 8) | channel;
  }
}
