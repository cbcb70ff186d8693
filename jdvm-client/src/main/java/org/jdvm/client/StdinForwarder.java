package org.jdvm.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;

/**
 * Reads a stream and pushes it to a process's stdin ({@link JdvmClient#forwardStdin}), keeping at
 * most a window of pushes unanswered: the DVM answers a push once the process's pipe took it, so a
 * process that reads slowly holds this reader back, and neither side buffers more than the window.
 */
final class StdinForwarder {
  private StdinForwarder() {}

  static void run(JdvmClient client, InputStream in, Proc target, int chunkBytes, int window)
      throws PmixException {
    ArrayDeque<CompletableFuture<Boolean>> inFlight = new ArrayDeque<>();
    byte[] buf = new byte[chunkBytes];
    while (true) {
      int n;
      try {
        n = in.read(buf);
      } catch (IOException e) {
        n = -1; // an unreadable stdin ends like an empty one
      }
      if (n == 0) {
        continue;
      }
      byte[] chunk = n < 0 ? new byte[0] : Arrays.copyOf(buf, n);
      inFlight.add(client.pushStdinAsync(target, chunk));
      if (n < 0) {
        drain(inFlight);
        return;
      }
      while (inFlight.size() >= window) {
        if (!JdvmClient.await(inFlight.poll())) {
          return; // the target's stdin closed: stop reading, as a closed pipe would
        }
      }
    }
  }

  private static void drain(ArrayDeque<CompletableFuture<Boolean>> inFlight) throws PmixException {
    while (!inFlight.isEmpty()) {
      try {
        JdvmClient.await(inFlight.poll());
      } catch (PmixException e) {
        if (e.status() != PmixStatus.ERR_IOF_COMPLETE) {
          throw e;
        }
      }
    }
  }
}
