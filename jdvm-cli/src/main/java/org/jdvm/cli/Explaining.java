package org.jdvm.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code jdvm explain}'s words (docs/cli.md): the JSON the DVM answers ({@code jdvm.qry.explain},
 * the core's own verdict and per-node reasons) said as sentences that name the rule of spec §8.2.1
 * and the namespaces, allocations and dispositions involved. Nothing here decides: every verdict is
 * the DVM's.
 */
final class Explaining {
  private Explaining() {}

  /** Prints the verdict line, then one row per node. */
  static void print(Map<String, Object> e, PrintStream out) {
    out.println(summary(e));
    List<Map<String, Object>> nodes = maps(e.get("nodes"));
    if (e.get("asked") instanceof Map<?, ?> asked) {
      out.println(asked(cast(asked), str(e.get("requester"))));
    }
    if (nodes.isEmpty()) {
      out.println("(no node to show)");
      return;
    }
    Table t = new Table("NODE", "USABLE", "WHY");
    for (Map<String, Object> n : nodes) {
      t.row(n.get("node"), Boolean.TRUE.equals(n.get("allowed")) ? "yes" : "no", why(e, n));
    }
    t.print(out);
  }

  /** The one line: the verdict and the rule that gave it. */
  static String summary(Map<String, Object> e) {
    String status = str(e.get("statusName"));
    if (e.get("job") != null) {
      return "job " + e.get("job") + ": " + placed(e) + " (spec §8.2.1.6)";
    }
    Object rejection = e.get("rejection");
    if (rejection == null) {
      return "allowed: " + placed(e) + " (spec §8.2.1.6)";
    }
    String requester = str(e.get("requester"));
    Map<String, Object> failing = failingTarget(e);
    String head = "refused, " + status + ": ";
    return head
        + switch (str(rejection)) {
          case "TARGET_NOT_FOUND" -> notFound(failing);
          case "TARGET_NOT_OWNED" ->
              "allocation "
                  + (failing == null ? "?" : failing.get("allocId"))
                  + " is reserved to its owner set ("
                  + (failing == null ? "" : join(failing.get("owners")))
                  + ") and "
                  + requester
                  + " is not in it (spec §8.2.1.7)";
          case "TARGET_TERMINATING" ->
              "session "
                  + (failing == null ? "?" : failing.get("allocId"))
                  + " is terminating and takes no new job (decisions.md #13)";
          case "DOES_NOT_FIT" ->
              e.get("procs")
                  + (num(e.get("procs")) == 1 ? " process" : " processes")
                  + ", but the nodes the spawn may use have "
                  + freeSlots(e)
                  + " free slots (spec §8.2.1.6)";
          case "UNKNOWN_NAMESPACE" -> "the requester " + requester + " is not known to the DVM";
          case "TERMINATED_NAMESPACE" -> "the requester " + requester + " has terminated";
          default -> "refused as " + rejection;
        };
  }

  private static String notFound(Map<String, Object> t) {
    if (t == null) {
      return "a target names no live allocation (spec §8.2.1.8)";
    }
    String s = "target " + t.get("named") + " names no live allocation (spec §8.2.1.8)";
    if (t.get("ended") instanceof Map<?, ?> ended) {
      s += "; allocation " + cast(ended).get("allocId") + " ended: " + ended(cast(ended));
    }
    return s;
  }

  /** The first target that is not found, not owned or terminating, in the spawn's order. */
  private static Map<String, Object> failingTarget(Map<String, Object> e) {
    for (Map<String, Object> t : maps(e.get("targets"))) {
      if (!Boolean.TRUE.equals(t.get("found"))) {
        return t;
      }
    }
    for (Map<String, Object> t : maps(e.get("targets"))) {
      if (!Boolean.TRUE.equals(t.get("mayTarget"))) {
        return t;
      }
    }
    for (Map<String, Object> t : maps(e.get("targets"))) {
      if (Boolean.TRUE.equals(t.get("terminating"))) {
        return t;
      }
    }
    return null;
  }

  private static String asked(Map<String, Object> a, String requester) {
    if (!Boolean.TRUE.equals(a.get("found"))) {
      return a.get("ended") instanceof Map<?, ?> ended
          ? "allocation " + a.get("named") + " ended: " + ended(cast(ended))
          : "allocation " + a.get("named") + ": no such allocation, now or remembered";
    }
    return "allocation "
        + a.get("allocId")
        + (Boolean.TRUE.equals(a.get("reserved"))
            ? " is reserved to " + join(a.get("owners"))
            : " is shared (its nodes are in the default session)")
        + "; "
        + requester
        + (Boolean.TRUE.equals(a.get("mayTarget")) ? " may" : " may not")
        + " target it (spec §8.2.1.7)";
  }

  /** How the spawn's (or job's) processes are spread: {@code 2 processes on n0 (2)}. */
  private static String placed(Map<String, Object> e) {
    List<String> on = new ArrayList<>();
    for (Map<String, Object> n : maps(e.get("nodes"))) {
      if (num(n.get("placed")) > 0) {
        on.add(n.get("node") + " (" + num(n.get("placed")) + ")");
      }
    }
    long procs = num(e.get("procs"));
    String count = procs + (procs == 1 ? " process" : " processes");
    if (e.get("job") != null) {
      return count + (on.isEmpty() ? ", none on the nodes shown" : ", on " + String.join(", ", on));
    }
    return count
        + " would run"
        + (on.isEmpty() ? ", none on the nodes shown" : " on " + String.join(", ", on));
  }

  private static long freeSlots(Map<String, Object> e) {
    long free = 0;
    for (Map<String, Object> n : maps(e.get("nodes"))) {
      free += Boolean.TRUE.equals(n.get("allowed")) ? num(n.get("freeSlots")) : 0;
    }
    return free;
  }

  /** Why one node is or is not usable, with its clause. */
  static String why(Map<String, Object> e, Map<String, Object> n) {
    String requester = str(e.get("requester"));
    String where =
        n.get("allocId") == null ? "the default session" : "allocation " + n.get("allocId");
    String clause = " (" + clause(n) + ")";
    String asking = e.get("job") != null ? "the job" : "the spawn";
    return switch (str(n.get("reason"))) {
      case "USABLE" -> usable(e, n) + clause + unreserved(n);
      case "NO_FREE_SLOT" -> "no free slot: " + n.get("slots") + " held by " + holders(n) + clause;
      case "NOT_TARGETED" ->
          "not targeted: in "
              + where
              + ", which "
              + asking
              + " does not target"
              + clause
              + unreserved(n);
      case "RESERVED_TO_OTHERS" ->
          "reserved to "
              + where
              + ", owned by "
              + join(n.get("owners"))
              + "; "
              + requester
              + " is not an owner"
              + clause;
      case "NOT_OWNED" ->
          "targeted, but "
              + where
              + " is reserved to "
              + join(n.get("owners"))
              + "; "
              + requester
              + " is not an owner"
              + clause;
      case "TERMINATING" -> "its session " + n.get("allocId") + " is terminating" + clause;
      case "NOT_IN_DVM" -> "not in the DVM" + clause + gone(n);
      default -> String.valueOf(n.get("reason"));
    };
  }

  private static String usable(Map<String, Object> e, Map<String, Object> n) {
    String s = n.get("freeSlots") + " of " + n.get("slots") + " slots free";
    long placed = num(n.get("placed"));
    if (placed > 0) {
      s +=
          e.get("job") != null
              ? "; runs " + placed + " of its processes"
              : "; would take " + placed;
    }
    return "usable: " + s;
  }

  /** For a node back in the default session: where it came from. */
  private static String unreserved(Map<String, Object> n) {
    if (n.get("endedWith") instanceof Map<?, ?> ended
        && "UNRESERVED".equals(cast(ended).get("how"))) {
      return "; unreserved when allocation "
          + cast(ended).get("allocId")
          + " ended: "
          + ended(cast(ended));
    }
    return "";
  }

  /** Why a node is not in the DVM, as far as the DVM knows. */
  private static String gone(Map<String, Object> n) {
    if ("down".equals(n.get("agent"))) {
      return ": the node is down (its agent stopped answering)";
    }
    if (n.get("endedWith") instanceof Map<?, ?> ended) {
      Map<String, Object> a = cast(ended);
      return ": it went back to the scheduler when allocation "
          + a.get("allocId")
          + " ended: "
          + ended(a);
    }
    if (n.get("fate") instanceof Map<?, ?> fate && Boolean.TRUE.equals(cast(fate).get("leftDvm"))) {
      Object from = cast(fate).get("allocId");
      return ": it left the DVM"
          + (from == null ? "" : " from allocation " + from)
          + " (lost, or released by an owner)";
    }
    return ": no such node, or it left before what the DVM remembers";
  }

  /** How an allocation ended, in the spec's words. */
  static String ended(Map<String, Object> a) {
    boolean ownerEnded = Boolean.TRUE.equals(a.get("ownerEnded"));
    String owner = str(a.get("owner"));
    String inheritance = str(a.get("inheritance"));
    return switch (str(a.get("how"))) {
      case "UNRESERVED" ->
          ownerEnded
              ? "its owner "
                  + owner
                  + " ended and its "
                  + inheritance
                  + " disposition unreserved its nodes into the default session (spec §8.2.1.9.2)"
              : "its nodes were unreserved into the default session (spec §8.2.1.9.2)";
      case "RELEASED" ->
          ownerEnded && (inheritance.equals("NONE") || inheritance.equals("CHILD"))
              ? "its owner "
                  + owner
                  + " ended and its "
                  + inheritance
                  + " disposition returned its nodes to the scheduler (spec §8.2.1.9.2)"
              : "an owner released it (spec §8.2.1.9.1)";
      case "RECLAIMED" -> "the scheduler took it back (spec §8.2.1.9.1)";
      default -> "the DVM tore down (spec §8.2.1.9.1)";
    };
  }

  private static String clause(Map<String, Object> n) {
    String c = str(n.get("clause"));
    return c.startsWith("§") ? "spec " + c : c;
  }

  private static String holders(Map<String, Object> n) {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> h : maps(n.get("holders"))) {
      out.add(h.get("nspace") + " (" + h.get("procs") + ")");
    }
    return out.isEmpty() ? "processes beyond its slots" : String.join(", ", out);
  }

  private static String join(Object list) {
    if (list instanceof List<?> l) {
      return String.join(", ", l.stream().map(String::valueOf).toList());
    }
    return String.valueOf(list);
  }

  static List<Map<String, Object>> maps(Object o) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (o instanceof List<?> l) {
      for (Object x : l) {
        if (x instanceof Map<?, ?> m) {
          out.add(cast(m));
        }
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> cast(Map<?, ?> m) {
    return (Map<String, Object>) m;
  }

  private static String str(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  private static long num(Object o) {
    return o instanceof Number x ? x.longValue() : 0;
  }
}
