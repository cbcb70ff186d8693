package org.jdvm.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jdvm.client.SpawnRequest;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code jdvm run}'s output options (docs/cli.md "Output"): mpirun's, srun's {@code -l}, and mpirun
 * 5's {@code --output LIST}. They become the spawn's {@code PMIX_IOF_*} attributes, which the
 * client library formats by and the DVM writes files by, so a C tool that sets the same attributes
 * gets the same output. A bad value is refused while the command line is read (exit 2).
 */
public final class RunOutputOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--tag-output",
      description = "Prefix each line with [JOB,RANK]<stdout>: (or <stderr>), as mpirun does.")
  boolean tag;

  @Option(
      names = {"-l", "--label"},
      description = "Prefix each line with its rank and ': ', as srun -l does.")
  boolean label;

  @Option(
      names = "--timestamp-output",
      description = "Prefix each line with the time it arrived, as mpirun does ([ctime]).")
  boolean timestamp;

  boolean tagFullname;
  boolean rank;
  boolean merge;
  boolean fileOnly;
  String dir;
  String jobDir;
  String file;

  @Option(
      names = "--output-filename",
      paramLabel = "DIR[:nocopy,nojobid]",
      description =
          "Write each rank's output to DIR/1/rank.N/stdout and stderr (Open MPI 4.1's layout),"
              + " written by the DVM; nocopy: not to the terminal too; nojobid: DIR/rank.N.")
  void outputFilename(String value) {
    int colon = value.indexOf(':');
    String path = colon < 0 ? value : value.substring(0, colon);
    jobDir = "1";
    if (colon >= 0) {
      for (String q : value.substring(colon + 1).split(",")) {
        switch (q) {
          case "nocopy" -> fileOnly = true;
          case "nojobid" -> jobDir = "";
          default -> throw bad("--output-filename: unknown qualifier '" + q + "'");
        }
      }
    }
    dir = absolute("--output-filename", path);
  }

  @Option(
      names = "--output",
      paramLabel = "LIST",
      description =
          "mpirun 5's spelling, comma-separated: tag, tag-fullname, rank, timestamp,"
              + " merge-stderr-to-stdout, dir=DIR[:nocopy] (DIR/NSPACE/rank.N/stdout),"
              + " file=PREFIX[:nocopy] (PREFIX.NSPACE.N.out and .err).")
  void output(String list) {
    for (String item : list.split(",")) {
      int eq = item.indexOf('=');
      String name = eq < 0 ? item : item.substring(0, eq);
      String value = eq < 0 ? null : item.substring(eq + 1);
      switch (name) {
        case "tag" -> tag = true;
        case "tag-fullname" -> tagFullname = true;
        case "rank" -> rank = true;
        case "timestamp" -> timestamp = true;
        case "merge-stderr-to-stdout", "merge" -> merge = true;
        case "dir", "directory" -> dir = absolute("--output dir=", qualified(name, value));
        case "file", "filename" -> file = absolute("--output file=", qualified(name, value));
        case "xml", "tag-detailed", "pattern", "raw" ->
            throw bad("--output " + name + " is not supported (docs/cli.md \"Output\")");
        default -> throw bad("--output: unknown directive '" + item + "'");
      }
    }
    if (dir != null && file != null) {
      throw bad("--output: give dir= or file=, not both");
    }
  }

  /** {@code VALUE[:nocopy]}: the value, noting the qualifier. */
  private String qualified(String name, String value) {
    if (value == null || value.isEmpty()) {
      throw bad("--output " + name + "= needs a value");
    }
    int colon = value.indexOf(':');
    if (colon < 0) {
      return value;
    }
    String q = value.substring(colon + 1);
    if (!q.equals("nocopy")) {
      throw bad("--output " + name + "=: unknown qualifier '" + q + "'");
    }
    fileOnly = true;
    return value.substring(0, colon);
  }

  /** The path made absolute from this command's directory, as mpirun makes it. */
  private String absolute(String what, String path) {
    if (path.isEmpty()) {
      throw bad(what + " needs a path");
    }
    try {
      return Path.of(System.getProperty("user.dir")).resolve(path).normalize().toString();
    } catch (InvalidPathException e) {
      throw bad(what + " is not a path: " + path);
    }
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), "jdvm run: " + message);
  }

  /** The spawn's output attributes. */
  void apply(SpawnRequest.Builder b) {
    if (tag) {
      b.tagOutput(true);
    }
    if (tagFullname) {
      b.tagFullnameOutput(true);
    }
    if (rank) {
      b.rankOutput(true);
    }
    if (timestamp) {
      b.timestampOutput(true);
    }
    if (label) {
      b.labelOutput(true);
    }
    if (merge) {
      b.mergeStderr(true);
    }
    if (dir != null) {
      b.outputDirectory(dir, jobDir);
    }
    if (file != null) {
      b.outputFile(file);
    }
    if (fileOnly) {
      b.fileOnly(true);
    }
  }
}
