package org.jdvm.host.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The children this process's main thread has — the orphans reparented to it, the subreaper
 * (launches fork from other threads) — read through {@code /proc/<this>/task/<this>/children}, kept
 * open and read again from its start at each launch ({@link CgroupContainment#adopt}).
 */
final class OwnChildren {
  private final int self = (int) ProcessHandle.current().pid();
  private FileChannel file; // guarded by this
  private ByteBuffer buffer = ByteBuffer.allocate(4096); // guarded by this

  /** The children now; read the slow way if the kept file cannot be read. */
  synchronized List<Integer> read() {
    try {
      if (file == null) {
        file = FileChannel.open(Path.of("/proc/" + self + "/task/" + self + "/children"));
      }
      ByteBuffer b = buffer;
      b.clear();
      while (true) {
        int n = file.read(b, b.position());
        if (n <= 0) {
          break;
        }
        if (!b.hasRemaining()) {
          b = ByteBuffer.allocate(b.capacity() * 2).put(b.flip());
          buffer = b;
        }
      }
      List<Integer> out = new ArrayList<>();
      ProcScan.parsePids(new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1), out);
      return out;
    } catch (IOException e) {
      KernelFiles.closeQuietly(file);
      file = null;
      return ProcScan.mainThreadChildrenOf(self);
    }
  }

  synchronized void close() {
    KernelFiles.closeQuietly(file);
    file = null;
  }
}
