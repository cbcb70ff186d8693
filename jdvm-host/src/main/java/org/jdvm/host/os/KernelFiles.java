package org.jdvm.host.os;

import java.io.Closeable;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Small kernel files (cgroupfs, {@code /proc}): read or written whole in one call, and the most
 * recently used ones kept open (at most the number given), so that a launch costs a write or a read
 * rather than an open, a write or read, and a close (which was a tenth of a launch's CPU). A read
 * or write happens under the cache's lock, so an eviction never closes a file in use.
 */
final class KernelFiles {
  /** What is done with a kept-open file. */
  interface Io {
    int apply(FileChannel ch) throws IOException;
  }

  private final LinkedHashMap<Path, FileChannel> open;

  /**
   * @param most how many files are kept open at most
   */
  KernelFiles(int most) {
    this.open =
        new LinkedHashMap<>(64, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Path, FileChannel> eldest) {
            if (size() > most) {
              closeQuietly(eldest.getValue());
              return true;
            }
            return false;
          }
        };
  }

  /**
   * Does {@code io} on {@code file}, opened in {@code mode} if it is not open yet. Whatever fails
   * (the process gone, the cgroup removed), the file is closed and the next use opens it afresh.
   */
  void withKeptOpen(Path file, OpenOption mode, Io io) throws IOException {
    synchronized (open) {
      FileChannel ch = open.get(file);
      if (ch == null) {
        ch = FileChannel.open(file, mode);
        open.put(file, ch);
      }
      try {
        io.apply(ch);
      } catch (IOException e) {
        open.remove(file);
        closeQuietly(ch);
        throw e;
      }
    }
  }

  /** Closes {@code file} if it is kept open (it is about to be removed). */
  void forget(Path file) {
    synchronized (open) {
      closeQuietly(open.remove(file));
    }
  }

  /** Closes every kept file. */
  void forgetAll() {
    synchronized (open) {
      open.values().forEach(KernelFiles::closeQuietly);
      open.clear();
    }
  }

  /**
   * A small kernel file read whole. Once or twice per launch: {@link
   * java.nio.file.Files#readAllLines} and its buffered reader cost several times the read itself.
   */
  static String readSmall(Path p) throws IOException {
    try (FileInputStream in = new FileInputStream(p.toFile())) {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  /** Writes a value to a kernel file (cgroupfs) in one write, as {@link #readSmall} reads. */
  static void writeSmall(Path p, String value) throws IOException {
    try (FileOutputStream out = new FileOutputStream(p.toFile())) {
      out.write(value.getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  static void closeQuietly(Closeable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (IOException e) {
      // Nothing more to learn.
    }
  }
}
