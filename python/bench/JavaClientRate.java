import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.SpawnRequest;

/**
 * The Java client's rate on a running DVM, for python/bench/rate.py: {@code /bin/true} jobs
 * spawned and waited for by one client with IN_FLIGHT threads for SECONDS seconds (after one
 * second of warm-up); prints {@code TASKS SECONDS}. Run as a single-file program on jdvm-cli's
 * class path: {@code java -cp CP JavaClientRate.java DIR IN_FLIGHT SECONDS}.
 */
public class JavaClientRate {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int inFlight = Integer.parseInt(args[1]);
    double seconds = Double.parseDouble(args[2]);
    try (JdvmClient c = JdvmClient.connector().dir(dir).connect()) {
      AtomicLong done = new AtomicLong();
      long warmEnd = System.nanoTime() + 1_000_000_000L;
      Thread[] ts = new Thread[inFlight];
      long end = warmEnd + (long) (seconds * 1e9);
      for (int i = 0; i < inFlight; i++) {
        ts[i] =
            new Thread(
                () -> {
                  try {
                    while (System.nanoTime() < end) {
                      c.spawn(SpawnRequest.of("/bin/true").forwardOutput(false).build())
                          .end()
                          .get();
                      long now = System.nanoTime();
                      if (now >= warmEnd && now < end) {
                        done.incrementAndGet();
                      }
                    }
                  } catch (Exception e) {
                    throw new RuntimeException(e);
                  }
                });
        ts[i].start();
      }
      for (Thread t : ts) {
        t.join();
      }
      System.out.println(done.get() + " " + seconds);
    }
  }
}
