package org.jdvm.endpoint.pmi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code mcmd=spawn} request read line by line (docs/protocol.md "Simple PMI"), as MPICH's
 * {@code PMI_Spawn_multiple} writes it: a block per app, opened by {@code mcmd=spawn} and closed by
 * {@code endcmd}, each line {@code key=value} where the value runs to the end of the line (an
 * argument may hold spaces and {@code =}):
 *
 * <pre>
 * mcmd=spawn
 * nprocs=2
 * execname=./child
 * totspawns=1
 * spawnssofar=1
 * arg1=--flag
 * argcnt=1
 * preput_num=1
 * preput_key_0=PARENT_ROOT_PORT_NAME
 * preput_val_0=tag#0$...
 * info_num=1
 * info_key_0=wdir
 * info_val_0=/tmp
 * endcmd
 * </pre>
 *
 * <p>The client reads one answer after the block whose {@code spawnssofar} equals {@code
 * totspawns}. Every block is read to its end whatever it holds, so the connection stays in step;
 * the first fault found is what the answer says, and nothing is spawned.
 *
 * <p>Bounds: {@link #MAX_LINES} lines in all (past it the connection ends: its end cannot be
 * trusted), {@link #MAX_APPS} apps, {@link #MAX_PROCS} processes per app, {@link #MAX_PAIRS}
 * arguments, preput pairs and info pairs per app. Not thread-safe: one connection's.
 */
final class PmiSpawn {
  /** The most lines one request may have before the connection is ended. */
  static final int MAX_LINES = 4096;

  /** The most apps one request may name. */
  static final int MAX_APPS = 64;

  /** The most processes one app may ask for. */
  static final int MAX_PROCS = 4096;

  /** The most arguments, preput pairs or info pairs of one app. */
  static final int MAX_PAIRS = 256;

  /** One app to start: its command, its arguments (without the command), count and info. */
  record App(String execname, List<String> args, int nprocs, Map<String, String> info) {}

  /** The whole request, read: its apps and the keys every child finds put already. */
  record Request(List<App> apps, Map<String, String> preput) {}

  /** What one line leaves the reader with. */
  sealed interface Step {}

  /** More lines are to come before an answer. */
  record More() implements Step {}

  /** The request is read and sound. */
  record Done(Request request) implements Step {}

  /** The request is read, or given up, and refused for {@code why}; {@code close}: end the link. */
  record Refused(String why, boolean close) implements Step {}

  private static final More MORE = new More();

  private final List<App> apps = new ArrayList<>();
  private Map<String, String> preput;
  private Map<String, String> block;
  private String fault;
  private int lines;

  /** Whether a request is being read (the next line belongs to it). */
  boolean reading() {
    return block != null || lines > 0;
  }

  /** Reads one line: {@code mcmd=spawn} opens a block, {@code endcmd} closes it. */
  Step add(String line) {
    if (++lines > MAX_LINES) {
      reset();
      return new Refused("a spawn of more than " + MAX_LINES + " lines", true);
    }
    if (block == null) {
      if (!line.equals("mcmd=spawn")) {
        reset();
        return new Refused("a spawn block must begin with mcmd=spawn, not " + line, true);
      }
      block = new HashMap<>();
      return MORE;
    }
    if (!line.equals("endcmd")) {
      int eq = line.indexOf('=');
      if (eq <= 0) {
        fault("a spawn line is key=value, not \"" + line + "\"");
      } else if (block.putIfAbsent(line.substring(0, eq), line.substring(eq + 1)) != null) {
        fault("a spawn block gives " + line.substring(0, eq) + " twice");
      }
      return MORE;
    }
    return endBlock();
  }

  private Step endBlock() {
    Map<String, String> b = block;
    block = null;
    Integer total = count(b, "totspawns", 1, MAX_APPS);
    Integer sofar = count(b, "spawnssofar", 1, MAX_APPS);
    if (total == null || sofar == null) {
      // without them the request's end is unknown: the connection cannot stay in step
      reset();
      return new Refused("a spawn block without a sound totspawns and spawnssofar", true);
    }
    if (fault == null) {
      readApp(b);
    }
    if (sofar < total) {
      return MORE;
    }
    Step out =
        fault != null
            ? new Refused(fault, false)
            : apps.size() != total
                ? new Refused("a spawn of " + total + " apps sent " + apps.size(), false)
                : new Done(new Request(List.copyOf(apps), preput == null ? Map.of() : preput));
    reset();
    return out;
  }

  private void readApp(Map<String, String> b) {
    String execname = b.get("execname");
    Integer nprocs = count(b, "nprocs", 1, MAX_PROCS);
    Integer argcnt = count(b, "argcnt", 0, MAX_PAIRS);
    if (execname == null || execname.isEmpty()) {
      fault("a spawn block without an execname");
    } else if (nprocs == null) {
      fault("a spawn block's nprocs must be 1 to " + MAX_PROCS);
    } else if (argcnt == null) {
      fault("a spawn block's argcnt must be 0 to " + MAX_PAIRS);
    }
    if (fault != null) {
      return;
    }
    List<String> args = new ArrayList<>(argcnt);
    for (int i = 1; i <= argcnt; i++) {
      String a = b.get("arg" + i);
      if (a == null) {
        fault("a spawn block with argcnt=" + argcnt + " has no arg" + i);
        return;
      }
      args.add(a);
    }
    Map<String, String> pre = pairs(b, "preput");
    Map<String, String> info = pairs(b, "info");
    if (pre == null || info == null) {
      return;
    }
    if (preput != null && !preput.equals(pre)) {
      fault("the apps of one spawn give different preput keys");
      return;
    }
    preput = pre;
    apps.add(new App(execname, List.copyOf(args), nprocs, info));
  }

  /** {@code <what>_num} pairs {@code <what>_key_i}/{@code <what>_val_i}; null on a fault. */
  private Map<String, String> pairs(Map<String, String> b, String what) {
    Integer n = b.containsKey(what + "_num") ? count(b, what + "_num", 0, MAX_PAIRS) : 0;
    if (n == null) {
      fault("a spawn block's " + what + "_num must be 0 to " + MAX_PAIRS);
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = b.get(what + "_key_" + i);
      String v = b.get(what + "_val_" + i);
      if (k == null || k.isEmpty() || v == null) {
        fault("a spawn block with " + what + "_num=" + n + " has no " + what + " pair " + i);
        return null;
      }
      out.put(k, v);
    }
    return Map.copyOf(out);
  }

  private static Integer count(Map<String, String> b, String key, int min, int max) {
    String s = b.get(key);
    if (s == null || s.isEmpty() || s.length() > 6 || !s.chars().allMatch(Character::isDigit)) {
      return null;
    }
    int v = Integer.parseInt(s);
    return v < min || v > max ? null : v;
  }

  private void fault(String why) {
    if (fault == null) {
      fault = why;
    }
  }

  private void reset() {
    apps.clear();
    preput = null;
    block = null;
    fault = null;
    lines = 0;
  }
}
