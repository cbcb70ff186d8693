package org.jdvm.server.agents;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The hosts of a DVM across machines (docs/cli.md "jdvm start"): {@code --hosts a,b:2,c} or an Open
 * MPI hostfile — one host per line, optionally {@code slots=N} (also {@code slots:N}, {@code
 * count=N}, {@code cpu=N}) and {@code max_slots=N} (accepted, not used), {@code #} starting a
 * comment; a host listed twice adds up its slots, as Open MPI counts it. A host without a slot
 * count gets its agent's number of cpus. Names are host names or addresses: letters, digits, dots,
 * hyphens, underscores, and never starting with a hyphen, so none can pass for an ssh option.
 */
public final class HostList {
  /** The most hosts one list may hold. */
  public static final int MAX_HOSTS = 65_536;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,252}");

  /** A host and its slots (0: as many as its agent has cpus). */
  public record Host(String name, int slots) {}

  private HostList() {}

  /** Refuses a name that is not a plain host name or address. */
  public static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "'" + name + "' is not a host name (letters, digits, '.', '-', '_')");
    }
  }

  /** {@code a,b:2,c}: hosts, each optionally with {@code :slots}. */
  public static List<Host> parseHosts(String list) {
    Map<String, Integer> hosts = new LinkedHashMap<>();
    for (String entry : list.split(",", -1)) {
      String e = entry.trim();
      int colon = e.lastIndexOf(':');
      int slots = 1;
      if (colon >= 0) {
        slots = count(e.substring(colon + 1), "--hosts " + e);
        e = e.substring(0, colon);
      }
      add(hosts, e, slots, "--hosts");
    }
    return list(hosts);
  }

  /** An Open MPI hostfile's text. */
  public static List<Host> parseHostfile(String text) {
    Map<String, Integer> hosts = new LinkedHashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash);
      }
      String[] words = line.trim().split("\\s+");
      if (words.length == 0 || words[0].isEmpty()) {
        continue;
      }
      String where = "hostfile line " + (i + 1);
      String name = words[0];
      int at = name.indexOf('@');
      if (at >= 0) {
        name = name.substring(at + 1); // user@host: the user is ssh's business
      }
      int slots = 0;
      for (int w = 1; w < words.length; w++) {
        String[] kv = words[w].split("[=:]", 2);
        String key = kv[0].toLowerCase(java.util.Locale.ROOT);
        if (kv.length != 2) {
          throw new IllegalArgumentException(where + ": '" + words[w] + "' is not KEY=VALUE");
        }
        switch (key) {
          case "slots", "count", "cpu" -> slots = count(kv[1], where);
          case "max_slots", "max-slots", "slots_max" -> count(kv[1], where);
          default ->
              throw new IllegalArgumentException(
                  where + ": unknown '" + kv[0] + "' (slots=N, max_slots=N)");
        }
      }
      add(hosts, name, slots, where);
    }
    return list(hosts);
  }

  private static void add(Map<String, Integer> hosts, String name, int slots, String where) {
    try {
      checkName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
    Integer before = hosts.get(name);
    if (before == null && hosts.size() >= MAX_HOSTS) {
      throw new IllegalArgumentException("more than " + MAX_HOSTS + " hosts");
    }
    hosts.put(name, before == null ? slots : Math.min(1 << 20, before + Math.max(slots, 1)));
  }

  private static int count(String s, String where) {
    try {
      int n = Integer.parseInt(s.trim());
      if (n < 1 || n > (1 << 20)) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + ": '" + s + "' is not a number of slots ≥ 1");
    }
  }

  private static List<Host> list(Map<String, Integer> hosts) {
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("no hosts listed");
    }
    List<Host> out = new ArrayList<>();
    hosts.forEach((n, s) -> out.add(new Host(n, s)));
    return out;
  }
}
