package org.jdvm.core.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.core.Command;
import org.jdvm.core.MapBy;
import org.jdvm.core.NodeFill;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.Report;
import org.jdvm.core.Request;
import org.jdvm.core.RequestId;
import org.jdvm.core.SessionOp;
import org.jdvm.pmix.AllocDirective;
import org.jdvm.pmix.AllocInheritance;
import org.jdvm.pmix.App;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.TimeSpec;

/**
 * The scenario language: one command per line, {@code verb key=value ... flag ...}. A requester is
 * {@code from=NAMESPACE} or {@code from=NAMESPACE.RANK}; lists are comma-separated and {@code ""}
 * is the empty string (the default session in a spawn target).
 */
final class Commands {
  private Commands() {}

  static final class Args {
    final String verb;
    final Map<String, String> values = new LinkedHashMap<>();
    final List<String> flags = new ArrayList<>();

    Args(String line) {
      String[] tokens = line.trim().split("\\s+");
      verb = tokens[0];
      for (int i = 1; i < tokens.length; i++) {
        int eq = tokens[i].indexOf('=');
        if (eq > 0) {
          values.put(tokens[i].substring(0, eq), tokens[i].substring(eq + 1));
        } else {
          flags.add(tokens[i]);
        }
      }
    }

    String get(String key) {
      String v = values.get(key);
      return v == null ? null : v.equals("\"\"") ? "" : v;
    }

    String need(String key) {
      String v = get(key);
      if (v == null) {
        throw new IllegalArgumentException(verb + " needs " + key + "=");
      }
      return v;
    }

    Integer integer(String key) {
      String v = get(key);
      return v == null ? null : Integer.valueOf(v);
    }

    Long number(String key) {
      String v = get(key);
      return v == null ? null : Long.valueOf(v);
    }

    List<String> list(String key) {
      String v = values.get(key);
      if (v == null) {
        return null;
      }
      List<String> out = new ArrayList<>();
      for (String s : v.split(",", -1)) {
        out.add(s.equals("\"\"") ? "" : s);
      }
      return out;
    }

    boolean flag(String name) {
      return flags.contains(name);
    }

    RequestId req() {
      return new RequestId(Long.parseLong(need("req")));
    }

    Proc from() {
      String f = need("from");
      int dot = f.lastIndexOf('.');
      if (dot > 0 && f.substring(dot + 1).chars().allMatch(Character::isDigit)) {
        return new Proc(f.substring(0, dot), Integer.parseInt(f.substring(dot + 1)));
      }
      return new Proc(f, 0);
    }
  }

  static Command parse(String line) {
    Args a = new Args(line);
    return switch (a.verb) {
      case "register-tool" -> new Request.RegisterTool(a.req(), a.get("ns"));
      case "register-scheduler" -> new Request.RegisterScheduler(a.req(), a.get("ns"));
      case "alloc" -> allocate(a);
      case "spawn" -> spawn(a);
      case "signal" ->
          new Request.SignalJob(a.req(), a.from(), a.need("job"), Integer.parseInt(a.need("sig")));
      case "terminate" -> new Request.TerminateJob(a.req(), a.from(), a.need("job"));
      case "abort" ->
          new Request.AbortJob(a.req(), a.from(), a.need("job"), Integer.parseInt(a.need("code")));
      case "session" -> session(a);
      case "launched" -> launched(a);
      case "launch-failed" ->
          new Report.LaunchFailed(
              a.need("node"),
              a.need("job"),
              ints(a.list("ranks")),
              status(a.get("status"), PmixStatus.ERR_JOB_FAILED_TO_LAUNCH));
      case "exit" ->
          new Report.ProcExited(
              a.need("job"),
              Integer.parseInt(a.need("rank")),
              orZero(a.integer("code")),
              orZero(a.integer("signal")));
      case "node-lost" -> new Report.NodeLost(a.need("node"));
      case "grant" ->
          new Report.SchedulerGranted(
              Long.parseLong(a.need("ask")),
              specs(a.list("nodes")),
              a.get("schedid"),
              a.number("time"));
      case "refuse" ->
          new Report.SchedulerRefused(Long.parseLong(a.need("ask")), status(a.need("status"), 0));
      case "queue" -> new Report.SchedulerQueued(Long.parseLong(a.need("ask")));
      case "sched-cancel" -> new Report.SchedulerCancelled(Long.parseLong(a.need("ask")));
      case "warn" -> new Report.SchedulerTimeoutWarning(a.need("id"), a.number("remaining"));
      case "reclaim" ->
          new Report.SchedulerReclaimed(
              a.need("id"),
              "admin".equals(a.get("reason"))
                  ? Report.ReclaimReason.ADMINISTRATIVE
                  : Report.ReclaimReason.EXPIRED);
      case "depart" -> new Report.ToolDeparted(a.need("ns"), a.flag("lost"));
      case "tick" -> new Report.Tick();
      case "teardown" -> new Report.Teardown();
      default -> throw new IllegalArgumentException("unknown scenario command: " + line);
    };
  }

  /** Sets an attribute the line gave; one it did not give stays absent. */
  private static <T> void given(T value, java.util.function.Consumer<T> set) {
    if (value != null) {
      set.accept(value);
    }
  }

  private static Request.Allocate allocate(Args a) {
    AllocDirective d = AllocDirective.valueOf(a.flags.get(0));
    String inherit = a.get("inherit");
    Integer raw =
        inherit == null
            ? null
            : inherit.chars().allMatch(Character::isDigit)
                ? Integer.valueOf(inherit)
                : AllocInheritance.valueOf(inherit).code();
    String share = a.get("share");
    Request.Allocate.Builder b =
        Request.Allocate.builder(a.req(), a.from(), d)
            .target(a.get("target"))
            .allocId(a.get("id"))
            .allocReqId(a.get("reqid"))
            .nodeList(a.list("nodes"))
            .required(!a.flag("optional"))
            .childSeparated(a.flag("sep"));
    given(share == null ? null : Boolean.valueOf(share), b::share);
    given(raw, b::inheritance);
    given(a.integer("count"), b::nodeCount);
    given(a.number("time"), b::timeLimitSeconds);
    given(a.number("warn"), b::warnTimeoutSeconds);
    given(a.number("lend"), b::lendSeconds);
    return b.build();
  }

  private static Request.Spawn spawn(Args a) {
    List<App> apps =
        withTimeouts(
            apps(a.get("apps"), a.integer("np")), a.integer("timeout"), a.integer("spawn-timeout"));
    return new Request.Spawn(
        a.req(),
        a.from(),
        apps,
        a.list("target"),
        a.number("session"),
        a.get("allocid"),
        a.get("reqid"),
        "node".equals(a.get("mapby")) ? MapBy.NODE : MapBy.SLOT,
        a.flag("recoverable"),
        stdin(a.get("stdin")),
        NodeFill.of(
            a.integer("npernode") == null ? 0 : a.integer("npernode"), a.flag("oversubscribe")));
  }

  /** {@code stdin=R} names one rank, {@code stdin=all} every rank. */
  private static Integer stdin(String s) {
    return s == null ? null : s.equals("all") ? Proc.RANK_WILDCARD : Integer.valueOf(s);
  }

  private static Request.SessionControl session(Args a) {
    List<SessionOp> ops = new ArrayList<>();
    for (String op : a.list("op") == null ? List.<String>of() : a.list("op")) {
      ops.add(SessionOp.valueOf(op.toUpperCase()));
    }
    String sep = a.get("sep");
    String id = a.need("id");
    long sessionId = id.equals("all") ? Request.SessionControl.ALL_SESSIONS : Long.parseLong(id);
    Request.SessionControl.Builder b =
        Request.SessionControl.builder(a.req(), a.from(), sessionId)
            .operations(ops.toArray(SessionOp[]::new))
            .allocId(a.get("allocid"))
            .allocReqId(a.get("reqid"))
            .nodes(a.list("nodes") == null ? null : specs(a.list("nodes")))
            .provision(a.flag("provision"))
            .apps(a.get("apps") == null ? null : apps(a.get("apps"), null))
            .namespaces(a.list("nspaces"))
            .ctrlId(a.get("ctrl"));
    given(sep == null ? null : Boolean.valueOf(sep), b::separate);
    given(a.integer("count"), b::nodeCount);
    // The endpoint reads PMIX_ALLOC_TIME's "M:D:H:M:S"; a string it cannot read is -1 seconds here.
    given(a.get("time") == null ? null : TimeSpec.parseSeconds(a.get("time")), b::allocTimeSeconds);
    given(a.number("timeout"), b::timeoutSeconds);
    given(
        a.get("inherit") == null ? null : AllocInheritance.valueOf(a.get("inherit")).code(),
        b::inheritance);
    given(a.integer("signal"), b::signal);
    return b.build();
  }

  private static Report.ProcsLaunched launched(Args a) {
    List<Report.LaunchedProc> procs = new ArrayList<>();
    for (String p : a.list("ranks")) {
      String[] rp = p.split(":");
      procs.add(new Report.LaunchedProc(Integer.parseInt(rp[0]), Long.parseLong(rp[1])));
    }
    return new Report.ProcsLaunched(a.need("node"), a.need("job"), procs);
  }

  /** {@code cmd:N,cmd:N}, or {@code np=N} processes of "app". */
  static List<App> apps(String spec, Integer np) {
    List<App> apps = new ArrayList<>();
    if (spec == null) {
      apps.add(app("app", np == null ? 1 : np));
      return apps;
    }
    for (String s : spec.split(",")) {
      String[] cn = s.split(":");
      apps.add(app(cn[0], Integer.parseInt(cn[1])));
    }
    return apps;
  }

  /**
   * {@code timeout=S}, {@code spawn-timeout=S}: the job's and its launch's time limits, in its
   * first app's info as the endpoint puts them.
   */
  private static List<App> withTimeouts(List<App> apps, Integer seconds, Integer launch) {
    if (seconds == null && launch == null) {
      return apps;
    }
    List<org.jdvm.pmix.Info> info = new ArrayList<>();
    if (seconds != null) {
      info.add(
          org.jdvm.pmix.Info.of(
              org.jdvm.pmix.PmixKeys.JOB_TIMEOUT, org.jdvm.pmix.Value.integer(seconds)));
    }
    if (launch != null) {
      info.add(
          org.jdvm.pmix.Info.of(
              org.jdvm.pmix.PmixKeys.SPAWN_TIMEOUT, org.jdvm.pmix.Value.integer(launch)));
    }
    App a = apps.get(0);
    List<App> out = new ArrayList<>(apps);
    out.set(0, new App(a.cmd(), a.argv(), a.env(), a.cwd(), a.maxprocs(), info));
    return out;
  }

  static App app(String cmd, int n) {
    return new App(cmd, List.of(cmd), List.of(), null, n, List.of());
  }

  static List<NodeSpec> specs(List<String> list) {
    List<NodeSpec> out = new ArrayList<>();
    if (list != null) {
      for (String s : list) {
        if (!s.isEmpty()) {
          String[] ns = s.split(":");
          out.add(new NodeSpec(ns[0], ns.length > 1 ? Integer.parseInt(ns[1]) : 1));
        }
      }
    }
    return out;
  }

  private static List<Integer> ints(List<String> list) {
    List<Integer> out = new ArrayList<>();
    for (String s : list) {
      out.add(Integer.valueOf(s));
    }
    return out;
  }

  private static int orZero(Integer v) {
    return v == null ? 0 : v;
  }

  /** A status by name (with or without the PMIX_ prefix) or number. */
  static int status(String s, int absent) {
    if (s == null) {
      return absent;
    }
    if (s.matches("-?\\d+")) {
      return Integer.parseInt(s);
    }
    String name = s.startsWith("PMIX_") ? s : "PMIX_" + s;
    for (int code = 0; code > -1000; code--) {
      if (PmixStatus.name(code).equals(name)) {
        return code;
      }
    }
    throw new IllegalArgumentException("unknown status " + s);
  }
}
