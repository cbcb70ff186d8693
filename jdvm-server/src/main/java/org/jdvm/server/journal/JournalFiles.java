package org.jdvm.server.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The journal's directory (docs/journal.md "Files"): {@code journal-<seq>.log} segments and {@code
 * snapshot-<seq>.snap} snapshots, {@code <seq>} the first batch the file does not already hold.
 * Names are parsed strictly; anything else in the directory is left alone. Every journal file is
 * its owner's only (0600, the directory 0700): it holds what jobs were spawned with, environment
 * included, and does not rely on the directory's mode for that.
 */
final class JournalFiles {
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private static final Pattern SEGMENT = Pattern.compile("journal-(\\d{1,19})\\.log");
  private static final Pattern SNAPSHOT = Pattern.compile("snapshot-(\\d{1,19})\\.snap");

  private final Path dir;

  JournalFiles(Path dir) throws IOException {
    this.dir = dir;
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    // A journal written before its files were made private keeps its records: only the mode
    // changes.
    for (Numbered n : segments()) {
      makePrivate(n.path());
    }
    for (Numbered n : snapshots()) {
      makePrivate(n.path());
    }
  }

  /** The attribute that creates a file its owner's only (0600). */
  static java.nio.file.attribute.FileAttribute<Set<PosixFilePermission>> ownerOnly() {
    return PosixFilePermissions.asFileAttribute(OWNER_ONLY);
  }

  /** Makes {@code file} its owner's only (never following a link: a link is left as it is). */
  static void makePrivate(Path file) throws IOException {
    if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      Files.setPosixFilePermissions(file, OWNER_ONLY);
    }
  }

  /**
   * Opens a new segment for writing from its start: created its owner's only, or, if a file of that
   * name was left behind, made so and emptied.
   */
  java.io.FileOutputStream openSegment(long seq) throws IOException {
    Path file = segment(seq);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    }
    makePrivate(file);
    return new java.io.FileOutputStream(file.toFile());
  }

  Path dir() {
    return dir;
  }

  /** The reserve the journal keeps for writes after its file system ran out (JournalSpace). */
  Path reserve() {
    return dir.resolve("reserve");
  }

  Path segment(long seq) {
    return dir.resolve("journal-" + seq + ".log");
  }

  Path snapshot(long seq) {
    return dir.resolve("snapshot-" + seq + ".snap");
  }

  /** A file's sequence number, in order. */
  record Numbered(long seq, Path path) {}

  List<Numbered> segments() throws IOException {
    return list(SEGMENT);
  }

  List<Numbered> snapshots() throws IOException {
    return list(SNAPSHOT);
  }

  private List<Numbered> list(Pattern p) throws IOException {
    List<Numbered> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : (Iterable<Path>) s::iterator) {
        Matcher m = p.matcher(f.getFileName().toString());
        if (m.matches()) {
          try {
            out.add(new Numbered(Long.parseLong(m.group(1)), f));
          } catch (NumberFormatException e) {
            // Above Long.MAX_VALUE: not ours.
          }
        }
      }
    }
    out.sort(Comparator.comparingLong(Numbered::seq));
    return out;
  }

  /** Cuts a segment at the last whole record and forces the cut to the disk. */
  static void truncate(Path segment, long length) throws IOException {
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      ch.truncate(length);
      ch.force(true);
    }
  }

  /**
   * Writes a file whole or not at all: a temporary file, forced to the disk, renamed into place,
   * and the directory forced so the rename itself survives a host crash.
   */
  void writeAtomically(Path target, byte[] bytes) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try {
      writeForced(tmp, bytes);
    } catch (IOException e) {
      // A snapshot that did not fit (a full disk) does not keep its part of the space.
      Files.deleteIfExists(tmp);
      throw e;
    }
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
    forceDir();
  }

  private static void writeForced(Path tmp, byte[] bytes) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            Set.of(
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS),
            PosixFilePermissions.asFileAttribute(OWNER_ONLY))) {
      makePrivate(tmp); // a temporary file a crash left behind keeps the mode it was created with
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
  }

  void forceDir() {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems cannot open a directory for force; the rename still happened.
    }
  }

  /** Moves a file the recovery could not use out of the way, keeping it for a post-mortem. */
  static void setAside(Path file) {
    try {
      Files.move(
          file,
          file.resolveSibling(file.getFileName() + ".corrupt"),
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // Leave it; recovery passes over it again next time.
    }
  }

  /** Removes every journal file: after a clean stop there is nothing to recover. */
  void clear() throws IOException {
    for (Numbered n : segments()) {
      Files.deleteIfExists(n.path());
    }
    for (Numbered n : snapshots()) {
      Files.deleteIfExists(n.path());
    }
    Files.deleteIfExists(reserve());
    forceDir();
  }
}
