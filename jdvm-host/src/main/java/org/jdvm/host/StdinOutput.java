package org.jdvm.host;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jdvm.host.os.Posix;

/**
 * A process's stdin pipe (non-blocking), written by one thread (the {@link StdinPipe}'s); a write
 * that finds it full parks until the poller sees room. A close during a write (the process exited)
 * is carried out by the writer as it returns, so the fd is never closed under a write.
 */
final class StdinOutput extends OutputStream {
  private final RunningProcess proc;
  private final Object lock = new Object();
  private int fd;
  private boolean writing;
  private volatile boolean closeRequested;

  StdinOutput(RunningProcess proc, int fd) {
    this.proc = proc;
    this.fd = fd;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    int target;
    synchronized (lock) {
      if (fd < 0 || closeRequested) {
        throw new IOException("closed");
      }
      writing = true;
      target = fd;
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment state = Posix.callState(arena);
      MemorySegment src = arena.allocate(Math.max(1, len));
      MemorySegment.copy(b, off, src, ValueLayout.JAVA_BYTE, 0, len);
      long done = 0;
      while (done < len) {
        if (closeRequested) {
          throw new IOException("closed");
        }
        long n = Posix.write(target, src.asSlice(done, len - done), state);
        if (n >= 0) {
          done += n;
        } else if (n == -Posix.EAGAIN) {
          awaitRoom(target);
        } else if (n != -Posix.EINTR) {
          throw new IOException(Posix.strerror((int) -n));
        }
      }
    } finally {
      synchronized (lock) {
        writing = false;
        if (closeRequested && fd >= 0) {
          Posix.close(fd);
          proc.stdinClosed();
          fd = -1;
        }
      }
    }
  }

  private void awaitRoom(int target) throws IOException {
    CompletableFuture<Void> f = proc.awaitStdinRoom(target);
    try {
      // Bounded, as a safety net: a wake-up lost would only cost this second.
      f.get(1, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      // Try again.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (writing) {
        closeRequested = true;
      } else if (fd >= 0) {
        Posix.close(fd); // closing removes it from the epoll set too
        proc.stdinClosed();
        fd = -1;
      }
    }
    proc.stdinWritable();
  }
}
