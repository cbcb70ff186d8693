package org.jdvm.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jdvm.client.AllocationResult;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;

/**
 * How a command reports its outcome and which exit status it gets (docs/cli.md "Exit statuses"):
 * not reaching the DVM is 1, a refusal is 3 with the PMIx status name printed; with {@code --json}
 * success and refusal are objects with the same {@code status} and {@code statusName} fields.
 */
public final class Outcomes {
  private Outcomes() {}

  /** The exit status when the DVM could not be reached (or a connection broke). */
  public static int unreachable(PmixException e, PrintStream err) {
    err.println("jdvm: cannot reach the DVM: " + e.getMessage());
    return Main.EXIT_FAILURE;
  }

  /** Whether a request failed because the DVM is gone, rather than because it said no. */
  public static boolean isUnreachable(PmixException e) {
    int s = e.status();
    return s == PmixStatus.ERR_UNREACH
        || s == PmixStatus.ERR_LOST_CONNECTION
        || s == PmixStatus.ERR_COMM_FAILURE;
  }

  /**
   * Prints a failed request's outcome (as JSON with {@code json}) and returns its exit status: 3
   * for a refusal, 1 if the DVM could not be reached.
   */
  public static int failed(PmixException e, boolean json, PrintStream out, PrintStream err) {
    if (isUnreachable(e)) {
      return unreachable(e, err);
    }
    if (json) {
      out.println(Json.write(refusal(e)));
    } else {
      err.println("refused: " + e.statusName() + " (" + e.status() + ")" + detail(e));
      if (e.status() == PmixStatus.ERR_OUT_OF_RESOURCE) {
        err.println(OUT_OF_RESOURCE_HINT);
      }
    }
    return Main.EXIT_REFUSED;
  }

  /** The JSON object of a success: status and statusName, to which a command adds its fields. */
  static Map<String, Object> success() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", PmixStatus.SUCCESS);
    m.put("statusName", PmixStatus.name(PmixStatus.SUCCESS));
    return m;
  }

  /**
   * The JSON object of a granted allocation request or session control (docs/cli.md, "jdvm alloc"):
   * {@code reqId}, {@code sessionId}, {@code timeLimit} when known, and {@code nspace} when a job
   * was started.
   */
  static Map<String, Object> granted(AllocationResult r, String nspace) {
    Map<String, Object> m = success();
    m.put("allocId", r.allocId());
    if (r.reqId() != null) {
      m.put("reqId", r.reqId());
    }
    if (r.sessionId() != null) {
      m.put("sessionId", r.sessionId());
    }
    m.put("nodes", r.nodes());
    if (r.timeLimitSeconds() != null) {
      m.put("timeLimit", r.timeLimitSeconds());
    }
    if (nspace != null) {
      m.put("nspace", nspace);
    }
    return m;
  }

  /** The JSON object of a refusal: status, statusName and message. */
  public static Map<String, Object> refusal(PmixException e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("status", e.status());
    m.put("statusName", e.statusName());
    m.put("message", e.getMessage());
    return m;
  }

  /** The exception's detail without the status name it starts with. */
  /**
   * What a refusal for want of resources can mean (a PMIx reply carries a status, not a reason):
   * the DVM's disk is short of space for its journal (docs/journal.md "A full disk"), or a bound on
   * what one peer, job or user may hold was met; the DVM's log says which.
   */
  static final String OUT_OF_RESOURCE_HINT =
      "the DVM is short of a resource: space on its disk for its journal, or a bound on what one"
          + " peer, job or user may hold (its dvm.log says which)";

  private static String detail(PmixException e) {
    String msg = e.getMessage();
    String prefix = e.statusName() + ": ";
    if (msg != null && msg.startsWith(prefix)) {
      return ": " + msg.substring(prefix.length());
    }
    return "";
  }
}
