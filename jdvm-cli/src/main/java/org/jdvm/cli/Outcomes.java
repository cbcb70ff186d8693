package org.jdvm.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;

/**
 * How a command reports a failure and which exit status it gets (docs/cli.md "Exit statuses"): not
 * reaching the DVM is 1, a refusal is 3 with the PMIx status name printed.
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
    }
    return Main.EXIT_REFUSED;
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
  private static String detail(PmixException e) {
    String msg = e.getMessage();
    String prefix = e.statusName() + ": ";
    if (msg != null && msg.startsWith(prefix)) {
      return ": " + msg.substring(prefix.length());
    }
    return "";
  }
}
