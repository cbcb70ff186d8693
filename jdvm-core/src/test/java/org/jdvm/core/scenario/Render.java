package org.jdvm.core.scenario;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.jdvm.core.Change;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Outcome;
import org.jdvm.core.ProcEnd;
import org.jdvm.core.Report;
import org.jdvm.core.RequestId;
import org.jdvm.pmix.App;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;

/**
 * Renders outcomes as scenario text: one line per change, effect and rejection, in order. Records
 * print as {@code Name field=value ...}, leaving out fields that are null or an empty list, and
 * false flags of records with more than two fields; statuses print by name.
 */
final class Render {
  private Render() {}

  static List<String> outcome(Outcome o) {
    List<String> lines = new ArrayList<>();
    for (Change c : o.changes()) {
      lines.add("change " + record((Record) c));
    }
    for (Effect e : o.effects()) {
      lines.add("effect " + effect(e));
    }
    if (o.rejection() != null) {
      lines.add("rejected " + o.rejection().name() + " " + PmixStatus.name(o.rejection().status()));
    }
    if (o.nextDeadlineNs() != Outcome.NO_DEADLINE) {
      lines.add("deadline " + o.nextDeadlineNs() / 1_000_000_000L + "s");
    }
    return lines;
  }

  private static String effect(Effect e) {
    if (e instanceof Effect.LaunchProcs l) {
      List<String> procs = new ArrayList<>();
      for (Effect.ProcLaunch p : l.procs()) {
        procs.add(p.rank() + ":" + app(p.app()) + (p.stdin() ? "+stdin" : ""));
      }
      List<String> env = l.procs().isEmpty() ? List.of() : l.procs().get(0).env();
      return "LaunchProcs node="
          + l.node()
          + " namespace="
          + l.namespace()
          + " procs="
          + procs
          + " env="
          + env;
    }
    return record((Record) e);
  }

  static String record(Record r) {
    StringBuilder out = new StringBuilder(r.getClass().getSimpleName());
    RecordComponent[] components = r.getClass().getRecordComponents();
    for (RecordComponent c : components) {
      Object v = get(c, r);
      boolean absent =
          v == null
              || Boolean.FALSE.equals(v) && components.length > 2
              || v instanceof List<?> l && l.isEmpty();
      if (!absent) {
        out.append(' ').append(c.getName()).append('=').append(value(c.getName(), v));
      }
    }
    return out.toString();
  }

  private static Object get(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  static String value(String name, Object v) {
    if (v instanceof Integer i && name.equals("status")) {
      return PmixStatus.name(i);
    }
    if (v instanceof Integer i && name.endsWith("Rank")) {
      return Proc.rankString(i);
    }
    return switch (v) {
      case String s -> s.isEmpty() || s.contains(" ") ? '"' + s + '"' : s;
      case List<?> list -> list(name, list);
      case Info info -> info.key() + "=" + value(info.value());
      case Proc p -> p.toString();
      case App a -> app(a);
      case RequestId id -> id.toString();
      case NodeSpec n -> n.toString();
      case Change.Placement p ->
          p.rank() + "@" + p.node() + (p.appIndex() > 0 ? "/" + p.appIndex() : "");
      case Report.LaunchedProc p -> p.rank() + ":" + p.pid();
      case ProcEnd e -> e.cause() + "(" + e.exitCode() + "," + e.signal() + ")";
      case Effect.JobStatus s ->
          s.namespace() + ":" + PmixStatus.name(s.status()) + ":" + s.exitCode();
      case Record r -> "(" + record(r) + ")";
      default -> String.valueOf(v);
    };
  }

  private static String list(String name, List<?> list) {
    List<String> parts = new ArrayList<>(list.size());
    for (Object o : list) {
      parts.add(value(name, o));
    }
    return "[" + String.join(", ", parts) + "]";
  }

  static String value(Value v) {
    if (v.type() == DataType.STATUS) {
      return PmixStatus.name(v.asInt());
    }
    if (v.type() == DataType.PROC_RANK) {
      return Proc.rankString(v.asInt());
    }
    return String.valueOf(v.data());
  }

  static String app(App a) {
    return (a.cmd() == null ? "?" : a.cmd()) + "x" + a.maxprocs();
  }
}
