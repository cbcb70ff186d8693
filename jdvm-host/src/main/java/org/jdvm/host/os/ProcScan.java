package org.jdvm.host.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

/**
 * What containment reads of other processes in {@code /proc}: their children, whether they are
 * zombies, the group their tag ({@link Containment#TAG_VARIABLE}) names; and the KILL of every
 * process carrying a tag, generation after generation.
 */
final class ProcScan {
  /** How long a kill waits for what it killed to be gone (a cgroup emptied, no tag left). */
  static final long KILL_WAIT_MS = 5000;

  private ProcScan() {}

  /** Whether {@code pid} has ended and waits to be reaped (state Z in {@code /proc/<pid>/stat}). */
  static boolean zombie(int pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The children the main thread of {@code pid} forked: a process that has just exec'd has no other
   * thread yet, and this is one read where the full list costs a directory walk.
   */
  static List<Integer> mainThreadChildrenOf(int pid) {
    List<Integer> out = new ArrayList<>();
    try {
      parsePids(KernelFiles.readSmall(Path.of("/proc/" + pid + "/task/" + pid + "/children")), out);
    } catch (IOException e) {
      // Gone meanwhile.
    }
    return out;
  }

  /** The children of every thread of {@code pid}, from {@code /proc/<pid>/task/<tid>/children}. */
  static List<Integer> childrenOf(int pid) {
    List<Integer> out = new ArrayList<>();
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
      for (Path t : tasks) {
        try {
          parsePids(Files.readString(t.resolve("children")), out);
        } catch (IOException | NumberFormatException e) {
          // The task ended meanwhile.
        }
      }
    } catch (IOException e) {
      // The process ended meanwhile.
    }
    return out;
  }

  /** Appends the numbers of a space-separated list (a {@code children} file) to {@code out}. */
  static void parsePids(String list, List<Integer> out) {
    int n = -1;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c >= '0' && c <= '9') {
        n = (n < 0 ? 0 : n * 10) + (c - '0');
      } else if (n >= 0) {
        out.add(n);
        n = -1;
      }
    }
    if (n >= 0) {
      out.add(n);
    }
  }

  /**
   * The group a process is tagged with by the host whose tag is {@code tag}, from its environment,
   * or {@code null}.
   */
  static String groupOf(int pid, String tag) {
    byte[] env;
    try {
      env = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
    } catch (IOException e) {
      return null;
    }
    return groupIn(env, tag);
  }

  /** The group an environment ({@code environ}'s bytes) is tagged with by {@code tag}, or null. */
  private static String groupIn(byte[] env, String tag) {
    String prefix = Containment.TAG_VARIABLE + "=" + tag + "/";
    for (String kv : new String(env, StandardCharsets.UTF_8).split("\u0000")) {
      if (kv.startsWith(prefix)) {
        return kv.substring(prefix.length());
      }
    }
    return null;
  }

  /**
   * As {@link #groupOf}, for a child of this process that may be exiting: one whose memory is gone
   * ({@code environ} unreadable or empty while {@code env_end} in its {@code stat} is 0) is exiting
   * or between the two halves of an exec, and is read again until it is a zombie or gone (its
   * children are reparented by then: the kernel does both in one step of the exit) or has its new
   * environment, at most until {@code deadlineNanos}. {@code null} if it carries no tag of {@code
   * tag}, has ended, or is still unsettled at the deadline.
   */
  static String settledGroupOf(int pid, String tag, long deadlineNanos) {
    while (true) {
      byte[] env;
      try {
        env = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
      } catch (AccessDeniedException e) {
        return null; // not this user's to read: not the host's
      } catch (IOException e) {
        env = null; // no memory (exiting: ESRCH) or gone
      }
      if (env != null && env.length > 0) {
        return groupIn(env, tag);
      }
      long envEnd = envEnd(pid);
      if (envEnd == ENDED) {
        return null;
      }
      if (env != null && envEnd != 0) {
        // An empty environment indeed, unless the exec finished between the two reads.
        return groupOf(pid, tag);
      }
      if (System.nanoTime() - deadlineNanos > 0) {
        return null;
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  /** {@link #envEnd}: the process is a zombie or gone. */
  private static final long ENDED = -1;

  /**
   * Field 51 of {@code /proc/<pid>/stat}, the end of its environment in its memory: 0 while it has
   * no memory or its exec has not placed it yet; {@link #ENDED} for a zombie or a process gone; 1
   * where the kernel does not show it (as if set: nothing to wait for).
   */
  private static long envEnd(int pid) {
    String stat;
    try {
      stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    } catch (IOException e) {
      return ENDED;
    }
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    char state = f[0].isEmpty() ? 'X' : f[0].charAt(0);
    if (state == 'Z' || state == 'X') {
      return ENDED;
    }
    try {
      return f.length > 48 ? Long.parseLong(f[48]) : 1;
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /**
   * How many live processes each group of the host whose tag is {@code tag} has, by the tag in
   * their environment (zombies have none): one pass over {@code /proc}.
   */
  static Map<String, Integer> countTagged(String tag) {
    Map<String, Integer> counts = new HashMap<>();
    long self = ProcessHandle.current().pid();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path p : ds) {
        String n = p.getFileName().toString();
        if (!n.isEmpty() && n.chars().allMatch(Character::isDigit) && Long.parseLong(n) != self) {
          String g = groupOf(Integer.parseInt(n), tag);
          if (g != null) {
            counts.merge(g, 1, Integer::sum);
          }
        }
      }
    } catch (IOException e) {
      // No /proc to list: nothing counted.
    }
    return counts;
  }

  /**
   * KILLs every process whose environment tags it with a value starting {@code prefix}: with {@code
   * adoptedUnless} null, any process; else only the children of this process it does not name (the
   * orphans it adopted). Repeats until none is found (bounded): a killed parent's children are
   * reparented after it dies.
   */
  static int killTagged(String prefix, IntPredicate adoptedUnless) {
    byte[] needle = (Containment.TAG_VARIABLE + "=" + prefix).getBytes(StandardCharsets.UTF_8);
    int killed = 0;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MS);
    while (System.nanoTime() < deadline) {
      List<Integer> candidates = candidates(adoptedUnless);
      if (candidates == null) {
        return killed;
      }
      int found = 0;
      for (int pid : candidates) {
        if (tagged(pid, needle)) {
          Posix.kill(pid, 9);
          found++;
        }
      }
      if (found == 0) {
        break;
      }
      killed += found;
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return killed;
  }

  /**
   * The processes {@link #killTagged} looks at: with {@code adoptedUnless} null every process but
   * this one, else the children of this process it does not name; {@code null} if {@code /proc}
   * cannot be listed.
   */
  private static List<Integer> candidates(IntPredicate adoptedUnless) {
    long self = ProcessHandle.current().pid();
    List<Integer> candidates = new ArrayList<>();
    if (adoptedUnless == null) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc"))) {
        for (Path p : ds) {
          String n = p.getFileName().toString();
          if (n.chars().allMatch(Character::isDigit) && Long.parseLong(n) != self) {
            candidates.add(Integer.parseInt(n));
          }
        }
      } catch (IOException e) {
        return null;
      }
    } else {
      for (int c : childrenOf((int) self)) {
        if (!adoptedUnless.test(c)) {
          candidates.add(c);
        }
      }
    }
    return candidates;
  }

  private static boolean tagged(int pid, byte[] needle) {
    byte[] env;
    try {
      env = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
    } catch (IOException e) {
      return false;
    }
    // Zombies have an empty environment: they are reaped, not killed.
    outer:
    for (int i = 0; i + needle.length <= env.length; ) {
      for (int j = 0; j < needle.length; j++) {
        if (env[i + j] != needle[j]) {
          int nul = indexOf(env, (byte) 0, i);
          if (nul < 0) {
            break outer;
          }
          i = nul + 1;
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static int indexOf(byte[] a, byte b, int from) {
    for (int i = from; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
