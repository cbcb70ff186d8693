package org.jdvm.host;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.jdvm.host.os.Containment;

/**
 * How many processes each containment group (a job on a node) has starting or running; when the
 * last one has ended, whatever the group left behind is ended by the {@link Containment}: at once
 * on the caller's thread when nothing of it runs any more (the usual case), else on a virtual
 * thread, unless the group was started again meanwhile or the host is closing.
 */
final class LiveGroups {
  private final Containment containment;
  private final BooleanSupplier hostClosed;
  private final Map<String, int[]> live = new HashMap<>(); // guarded by itself
  private final ExecutorService ends = Executors.newVirtualThreadPerTaskExecutor();

  /**
   * @param hostClosed whether the host is closing: the containment then ends every group at once
   */
  LiveGroups(Containment containment, BooleanSupplier hostClosed) {
    this.containment = containment;
    this.hostClosed = hostClosed;
  }

  /** A process of {@code group} is starting. */
  void starting(String group) {
    synchronized (live) {
      live.computeIfAbsent(group, g -> new int[1])[0]++;
    }
  }

  /** The group lost a process; its last one gone, whatever it left behind is ended. */
  void ended(String group) {
    synchronized (live) {
      int[] n = live.get(group);
      if (n == null || --n[0] > 0) {
        return;
      }
      live.remove(group);
      // Usually nothing of the group runs any more: then it ends here, on this thread.
      if (hostClosed.getAsBoolean() || containment.endIfNothingRuns(group)) {
        return;
      }
    }
    ends.execute(
        () -> {
          synchronized (live) {
            if (live.containsKey(group)) {
              return; // started again meanwhile: the group is in use
            }
            containment.end(group);
          }
        });
  }

  /** The groups with a process starting or running now. */
  List<String> names() {
    synchronized (live) {
      return List.copyOf(live.keySet());
    }
  }

  /** Takes no more ends: the host has closed its containment, which ended every group. */
  void shutdown() {
    ends.shutdown();
  }
}
