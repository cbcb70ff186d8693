package org.jdvm.bench.dvm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jdvm.client.Contact;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.OutputHandler;
import org.jdvm.client.PmixException;
import org.jdvm.client.Role;
import org.jdvm.client.SpawnRequest;

/** Tool clients of the bench DVM, each running its work on a platform thread of its own. */
final class Clients {
  /** What one client does, on its own thread. */
  interface Work {
    void run(JdvmClient client) throws Exception;
  }

  private final List<Thread> threads = new ArrayList<>();
  private final List<Exception> failures = Collections.synchronizedList(new ArrayList<>());

  private Clients() {}

  /** A tool client of the DVM at {@code c}, its jobs' output discarded. */
  static JdvmClient connect(Contact c) throws PmixException {
    return JdvmClient.connector()
        .contact(c)
        .role(Role.TOOL)
        .output(OutputHandler.DISCARD)
        .connect();
  }

  /** The job every measure spawns: one {@code /bin/true}, its end notified. */
  static SpawnRequest trueJob() {
    return SpawnRequest.of("/bin/true").forwardOutput(false).notifyCompletion(true).build();
  }

  /** {@code n} clients, each connected now and running {@code work} on a thread of its own. */
  static Clients start(Contact c, int n, Work work) throws PmixException {
    Clients out = new Clients();
    for (int i = 0; i < n; i++) {
      JdvmClient client = connect(c);
      out.threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try (client) {
                      work.run(client);
                    } catch (Exception e) {
                      out.failures.add(e);
                    }
                  }));
    }
    return out;
  }

  /** Waits for every client to finish; the first failure, if any, is thrown. */
  void join() throws Exception {
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw failures.getFirst();
    }
  }
}
