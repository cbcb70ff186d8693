package org.jdvm.endpoint.serve;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.jdvm.endpoint.deliver.JobOutput;
import org.jdvm.endpoint.deliver.OutputFiles;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;

/**
 * A spawn's output files ({@code PMIX_IOF_OUTPUT_TO_DIRECTORY}, {@code PMIX_IOF_OUTPUT_TO_FILE},
 * {@code PMIX_IOF_FILE_ONLY}; docs/cli.md "Output"), checked before anything starts. The line
 * formats ({@code PMIX_IOF_TAG_OUTPUT} and the like) are not the DVM's: the requester's library
 * applies them to what it receives, as libpmix 4.2.2 does for a tool ({@code pmix_client_spawn.c}
 * keeps the spawn's flags, {@code pmix_iof_write_output} applies them), so a DVM that tagged too
 * would tag every line twice for a C tool.
 *
 * <p>Who may have the DVM write where: {@code Admission} admits only peers of the DVM's own uid
 * (the kernel's word) or holders of its secret, so the requester's rights are the DVM's, and the
 * DVM checks the path with its own: an existing directory must be writable, else the nearest
 * existing ancestor must be, or the spawn is refused with {@code PMIX_ERR_NO_PERMISSIONS}.
 */
final class IofOptions {
  private IofOptions() {}

  /**
   * What a spawn asks of its output: files, raw forwarding, formatting by its library.
   *
   * @param merged the job's stderr is merged into its stdout
   */
  static JobOutput read(List<Info> jobInfos, List<App> apps, boolean merged) throws BadRequest {
    boolean raw = false;
    boolean formatted = false;
    for (Info i : jobInfos) {
      switch (i.key()) {
        case PmixKeys.IOF_OUTPUT_RAW -> raw = Values.bool(i);
        case PmixKeys.IOF_TAG_OUTPUT,
            PmixKeys.IOF_TAG_DETAILED_OUTPUT,
            PmixKeys.IOF_TAG_FULLNAME_OUTPUT,
            PmixKeys.IOF_RANK_OUTPUT,
            PmixKeys.IOF_TIMESTAMP_OUTPUT,
            PmixKeys.IOF_XML_OUTPUT,
            JdvmProtocol.IOF_LABEL ->
            formatted |= Values.bool(i);
        default -> {}
      }
    }
    return new JobOutput(files(jobInfos, apps, merged), raw, formatted);
  }

  /** The files a spawn asks for, or {@code null} for none. */
  private static OutputFiles.Spec files(List<Info> jobInfos, List<App> apps, boolean merged)
      throws BadRequest {
    String dir = null;
    String file = null;
    String jobDir = null;
    boolean fileOnly = false;
    for (Info i : jobInfos) {
      switch (i.key()) {
        case PmixKeys.IOF_OUTPUT_TO_DIRECTORY -> dir = Values.text(i);
        case PmixKeys.IOF_OUTPUT_TO_FILE -> file = Values.text(i);
        case PmixKeys.IOF_FILE_ONLY -> fileOnly = Values.bool(i);
        case JdvmProtocol.IOF_JOBDIR -> jobDir = jobDir(Values.text(i));
        case PmixKeys.IOF_FILE_PATTERN -> {
          if (Values.bool(i)) {
            throw BadRequest.notSupported(
                "PMIX_IOF_FILE_PATTERN: libpmix 4.2.2 itself takes the pattern literally;"
                    + " give PMIX_IOF_OUTPUT_TO_FILE or PMIX_IOF_OUTPUT_TO_DIRECTORY");
          }
        }
        default -> {}
      }
    }
    if (dir == null && file == null) {
      if (fileOnly) {
        throw BadRequest.param("PMIX_IOF_FILE_ONLY without a file or directory to write to");
      }
      return null;
    }
    if (dir != null && file != null) {
      throw BadRequest.param("give PMIX_IOF_OUTPUT_TO_FILE or PMIX_IOF_OUTPUT_TO_DIRECTORY");
    }
    String base = apps.isEmpty() ? null : apps.get(0).cwd();
    int procs = 0;
    for (App a : apps) {
      procs += a.maxprocs();
    }
    if (dir != null) {
      Path d = absolute(dir, base, "PMIX_IOF_OUTPUT_TO_DIRECTORY");
      writable(d);
      return new OutputFiles.Spec(d, jobDir, null, merged, procs, fileOnly);
    }
    Path p = absolute(file, base, "PMIX_IOF_OUTPUT_TO_FILE");
    writable(p.getParent());
    return new OutputFiles.Spec(null, null, p, merged, procs, fileOnly);
  }

  /** A name of one path element, or empty for none (Open MPI 4.1's {@code nojobid}). */
  private static String jobDir(String s) throws BadRequest {
    if (s.contains("/") || s.equals(".") || s.equals("..")) {
      throw BadRequest.param(
          JdvmProtocol.IOF_JOBDIR + " must be one directory name, or empty: " + s);
    }
    return s;
  }

  /** An absolute path, or one relative to the first app's working directory. */
  private static Path absolute(String s, String base, String what) throws BadRequest {
    try {
      Path p = Path.of(s);
      if (!p.isAbsolute()) {
        if (base == null || base.isEmpty() || !Path.of(base).isAbsolute()) {
          throw BadRequest.param(what + " is relative and the app has no working directory: " + s);
        }
        p = Path.of(base).resolve(p);
      }
      return p.normalize();
    } catch (InvalidPathException e) {
      throw BadRequest.param(what + " is not a path: " + s);
    }
  }

  /** Whether the DVM (the requester, see the class) may create or write in {@code dir}. */
  static void writable(Path dir) throws BadRequest {
    Path p = dir;
    while (p != null && !Files.exists(p)) {
      p = p.getParent();
    }
    if (p == null || !Files.isDirectory(p)) {
      throw new BadRequest(
          PmixStatus.ERR_NO_PERMISSIONS, "cannot create output directory " + dir + ": " + p);
    }
    if (!Files.isWritable(p) || !Files.isExecutable(p)) {
      throw new BadRequest(
          PmixStatus.ERR_NO_PERMISSIONS,
          "output directory " + dir + ": " + p + " is not writable by the requester");
    }
  }
}
