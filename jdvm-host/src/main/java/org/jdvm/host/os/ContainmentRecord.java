package org.jdvm.host.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The crash record: what a host contains, written to {@code <dvm dir>/}{@link Containment#RECORD}
 * (its cgroup in cgroup mode, its tag, and a description line for {@code jdvm start}). A controller
 * killed outright cannot end its processes; the next one started on the same directory reads the
 * record first and ends what it names ({@link #takeOver}): the cgroup with {@code cgroup.kill}, and
 * every process carrying the tag. Only a cgroup this code names ({@code jdvm-…}) under a cgroup2
 * mount, and only a process carrying a {@code jdvm-…} tag, is ever ended.
 */
final class ContainmentRecord {
  private static final System.Logger LOG = System.getLogger("org.jdvm.server.node");

  private static int names; // guarded by ContainmentRecord.class

  private final Path file;
  private final String leftover;
  private volatile String starts;

  private ContainmentRecord(Path file, String leftover) {
    this.file = file;
    this.leftover = leftover;
  }

  /**
   * Ends what the record on {@code dvmDir} names (a killed predecessor's) and returns the record
   * this host keeps there; with {@code dvmDir} null, one that records nothing.
   */
  static ContainmentRecord takeOver(Path dvmDir) {
    Path file = dvmDir == null ? null : dvmDir.resolve(Containment.RECORD);
    return new ContainmentRecord(file, file == null ? null : endRecorded(file));
  }

  /** A name no other host has: {@code jdvm-<pid>-<n>}, the tag and the host's cgroup. */
  static synchronized String newName() {
    return "jdvm-" + ProcessHandle.current().pid() + "-" + ++names;
  }

  /** {@code mechanism}, then how processes start and what a killed predecessor left, if known. */
  String describe(String mechanism) {
    String s = starts == null ? mechanism : mechanism + "; " + starts;
    return leftover == null ? s : s + "; " + leftover;
  }

  /** How the host starts processes, for {@link #describe}. */
  void starts(String how) {
    starts = how;
  }

  /** Writes the record: the host's cgroup ({@code null} in subreaper mode), tag and description. */
  void write(Path cgroup, String tag, String description) {
    if (file == null) {
      return;
    }
    try {
      Files.createDirectories(file.getParent());
      var ownerOnly = java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
      if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.createFile(
            file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(ownerOnly));
      } else {
        Files.setPosixFilePermissions(file, ownerOnly); // one an older DVM left readable
      }
      Files.writeString(
          file,
          (cgroup != null ? "cgroup " + cgroup + "\n" : "")
              + "tag "
              + tag
              + "\n# "
              + description
              + "\n");
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot write " + file + ": " + e);
    }
  }

  /** Removes the record: the host ended what it contained. */
  void delete() {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // The directory is going away.
      }
    }
  }

  /** The description a host on {@code dvmDir} recorded, or {@code null}. */
  static String recordedDescription(Path dvmDir) {
    try {
      for (String l : Files.readAllLines(dvmDir.resolve(Containment.RECORD))) {
        if (l.startsWith("# ")) {
          return l.substring(2);
        }
      }
    } catch (IOException e) {
      // None recorded.
    }
    return null;
  }

  /**
   * Ends what the record of a dead controller names; returns what was done, for the start-up line,
   * or {@code null} if there was nothing to do.
   */
  static String endRecorded(Path record) {
    List<String> lines;
    try {
      lines = Files.readAllLines(record);
    } catch (IOException e) {
      return null;
    }
    long t0 = System.nanoTime();
    int ended = 0;
    for (String line : lines) {
      ended += endRecorded(line.trim());
    }
    try {
      Files.deleteIfExists(record);
    } catch (IOException e) {
      // Rewritten below.
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    return ended == 0 ? null : "ended " + ended + " processes a killed DVM left in " + ms + " ms";
  }

  /** Ends what one line of a record names; returns how many processes it ended. */
  private static int endRecorded(String line) {
    int ended = 0;
    if (line.startsWith("cgroup ")) {
      Path cg = Path.of(line.substring(7));
      // Only a cgroup this code names, under a cgroup2 mount: never anything else.
      if (cg.getFileName() != null
          && cg.getFileName().toString().startsWith("jdvm-")
          && Files.isRegularFile(cg.resolve("cgroup.kill"))) {
        ended = CgroupFs.countProcs(cg);
        CgroupFs.kill(cg);
        CgroupFs.removeEmptyBelow(cg);
        try {
          Files.deleteIfExists(cg);
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "cannot remove " + cg + ": " + e);
        }
      }
    } else if (line.startsWith("tag jdvm-")) {
      // What escaped the cgroup, or everything in subreaper mode.
      ended = ProcScan.killTagged(line.substring(4) + "/", null);
    }
    return ended;
  }
}
