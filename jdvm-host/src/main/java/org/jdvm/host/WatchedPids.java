package org.jdvm.host;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The children every host in this JVM watches itself (from their start until they are reaped),
 * which the containment never takes for adopted orphans. One set for the JVM, not one per host: a
 * host's sweep reaps zombie children nobody watches (orphans it adopted), and with two hosts in one
 * JVM (an agent and a DVM in a test, say) a per-host set let one host reap the other's child and
 * steal its exit status.
 */
final class WatchedPids {
  private static final Set<Integer> PIDS = ConcurrentHashMap.newKeySet();

  private WatchedPids() {}

  static void add(int pid) {
    PIDS.add(pid);
  }

  static void remove(int pid) {
    PIDS.remove(pid);
  }

  static boolean contains(int pid) {
    return PIDS.contains(pid);
  }
}
