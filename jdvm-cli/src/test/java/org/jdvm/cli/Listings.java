package org.jdvm.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdvm.client.JdvmClient;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.json.Json;

/** What end-to-end tests read back from a DVM's listings, and waiting for it. */
final class Listings {
  private Listings() {}

  /** The job {@code ns} as {@code jobs --json} lists it, or an empty map. */
  static Map<String, Object> jobOf(JdvmClient c, String ns) {
    for (Map<String, Object> j : jobs(c)) {
      if (ns.equals(j.get("nspace"))) {
        return j;
      }
    }
    return Map.of();
  }

  static List<Map<String, Object>> jobs(JdvmClient c) {
    try {
      return list(c.jobsJson());
    } catch (PmixException e) {
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(String json) {
    return (List<Map<String, Object>>) Json.parse(json);
  }

  /** The pids of the processes a jobs listing shows running. */
  @SuppressWarnings("unchecked")
  static List<Long> runningPids(String jobsJson) {
    List<Long> out = new ArrayList<>();
    for (Map<String, Object> j : list(jobsJson)) {
      if (j.get("procs") instanceof List<?> procs) {
        for (Object p : procs) {
          Map<String, Object> m = (Map<String, Object>) p;
          if ("running".equals(m.get("state")) && m.get("pid") instanceof Number n) {
            out.add(n.longValue());
          }
        }
      }
    }
    return out;
  }

  /** A copy of a listed list without one item. */
  static List<Object> without(Object list, String item) {
    List<Object> out = new ArrayList<>((List<?>) list);
    out.remove(item);
    return out;
  }

  /** Waits until {@code condition} holds, at most {@code seconds}. */
  static void until(BooleanSupplier condition, String what, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }
}
