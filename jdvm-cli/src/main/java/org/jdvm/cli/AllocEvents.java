package org.jdvm.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdvm.client.Event;
import org.jdvm.client.PmixException;
import org.jdvm.pmix.JdvmProtocol;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.json.Json;

/**
 * What {@code jdvm alloc new -- CMD} says of its allocation while it holds it (docs/cli.md "jdvm
 * alloc"): the timeout warning and the allocation's end, as they arrive; and, when the allocation
 * ended between its grant and CMD's start (the scheduler reclaimed it: a Slurm job cancelled by an
 * administrator, say), that, instead of the bare refusal of the spawn that found it gone.
 */
final class AllocEvents {
  private final boolean json;
  private final PrintStream err;

  /** How each allocation ended, as its end event said ({@code RECLAIMED}, ...). */
  private final Map<String, String> ends = new ConcurrentHashMap<>();

  /** Allocations whose end was told already, so that it is told once. */
  private final Set<String> told = ConcurrentHashMap.newKeySet();

  AllocEvents(boolean json, PrintStream err) {
    this.json = json;
    this.err = err;
  }

  /** An event addressed to the command. */
  void event(Event e) {
    String alloc = Objects.toString(e.info(PmixKeys.ALLOC_ID), "");
    String end = e.info(JdvmProtocol.ALLOCATION_END);
    if (e.status() == PmixStatus.EVENT_SESSION_END) {
      ends.put(alloc, end == null ? "" : end);
      if (!told.add(alloc)) {
        return; // the refusal of CMD's spawn said it already
      }
    }
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("event", PmixStatus.name(e.status()));
      m.put("allocId", e.info(PmixKeys.ALLOC_ID));
      m.put("reqId", e.info(PmixKeys.ALLOC_REQ_ID));
      m.put("timeRemaining", e.info(PmixKeys.TIME_REMAINING));
      m.put("end", end);
      m.values().removeIf(Objects::isNull);
      err.println(Json.write(m));
    } else if (e.status() == PmixStatus.ALLOC_TIMEOUT_WARNING) {
      err.println(
          "jdvm: allocation "
              + e.info(PmixKeys.ALLOC_ID)
              + " expires in "
              + e.info(PmixKeys.TIME_REMAINING)
              + " s (timeout warning)");
    } else {
      err.println("jdvm: allocation " + alloc + " ended: " + endText(end));
    }
  }

  static String endText(String how) {
    return switch (how == null ? "" : how) {
      case "RELEASED" -> "released, its nodes returned to the scheduler";
      case "UNRESERVED" -> "unreserved, its nodes stay in the DVM's default session";
      case "RECLAIMED" -> "reclaimed by the scheduler (its time is up)";
      default -> "ended";
    };
  }

  /**
   * The refusal of CMD's spawn, said as what it means when the allocation ended before CMD started:
   * a spawn into an allocation that is gone is refused {@code PMIX_ERR_NOT_FOUND}, and one this
   * command was just granted and still owns can only have gone back to the scheduler. Another
   * refusal is returned as it came.
   */
  PmixException beforeStart(String allocId, PmixException refusal) {
    String how = ends.get(allocId);
    if (how == null && refusal.status() != PmixStatus.ERR_NOT_FOUND) {
      return refusal;
    }
    if (!told.add(allocId)) { // its end event said how already
      return new PmixException(
          refusal.status(),
          "allocation " + allocId + " had ended before its command started; nothing ran");
    }
    String what =
        how == null || how.equals("RECLAIMED") || how.isEmpty()
            ? "reclaimed by the scheduler"
            : endText(how);
    return new PmixException(
        refusal.status(),
        "allocation " + allocId + " ended: " + what + " before its command started; nothing ran");
  }
}
