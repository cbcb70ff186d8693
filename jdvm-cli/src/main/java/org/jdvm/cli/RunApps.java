package org.jdvm.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdvm.client.SpawnRequest;

/**
 * The apps of one {@code jdvm run} ({@link RunEnvOptions}): a command line split at {@code :}, or
 * the lines of an appfile, each with its own {@code -n}, {@code -x}, {@code --wdir} and environment
 * directives as mpirun takes them per app; and how each becomes an app of the spawn. Bad input is
 * an {@code IllegalArgumentException} whose message is the one line {@code jdvm run} prints.
 */
final class RunApps {
  private RunApps() {}

  /** What separates the apps of one job on the command line (mpirun's). */
  static final String SEPARATOR = ":";

  /**
   * One environment option: {@code kind} is the option's name ({@code -x}, {@code --set-env}, ...),
   * {@code value} {@code null} for {@code -x VAR} and {@code --unset-env}.
   */
  record Directive(String kind, String name, String value, char separator) {}

  /** One app: its processes, its environment options in order, its directory, its argv. */
  record AppSpec(int procs, List<Directive> directives, String wdir, List<String> argv) {
    AppSpec withArgv(List<String> a) {
      return new AppSpec(procs, directives, wdir, a);
    }
  }

  private static final Pattern SEPARATED = Pattern.compile("([^\\[\\]=]+)\\[(.)\\]");

  /** Reads one option's values into a directive; refuses a malformed one or a reserved name. */
  static Directive directive(String option, List<String> values) {
    String v = values.get(0);
    Directive d =
        switch (option) {
          case "-x" -> {
            int eq = v.indexOf('=');
            yield eq < 0
                ? new Directive("-x", v, null, '\0')
                : new Directive("-x", v.substring(0, eq), v.substring(eq + 1), '\0');
          }
          case "--set-env", "--setenv" -> {
            int eq = v.indexOf('=');
            if (eq < 0) {
              throw new IllegalArgumentException(option + " takes VAR=VALUE, not \"" + v + "\"");
            }
            yield new Directive("--set-env", v.substring(0, eq), v.substring(eq + 1), '\0');
          }
          case "--unset-env", "--unsetenv" -> new Directive("--unset-env", v, null, '\0');
          default -> {
            Matcher m = SEPARATED.matcher(v);
            if (!m.matches()) {
              throw new IllegalArgumentException(
                  option
                      + " takes VAR[c] VALUE (c the separator, e.g. PATH[:]), not \""
                      + v
                      + "\"");
            }
            yield new Directive(option, m.group(1), values.get(1), m.group(2).charAt(0));
          }
        };
    if (d.name().isEmpty()) {
      throw new IllegalArgumentException(option + " names no variable");
    }
    if (d.name().startsWith("PMIX_")
        || d.name().startsWith("PMI_")
        || d.name().startsWith("JDVM_")) {
      throw new IllegalArgumentException(
          option + " " + d.name() + ": jdvm sets PMIX_*, PMI_* and JDVM_* itself");
    }
    return d;
  }

  /** {@code command} split at {@code :}: the first app takes {@code first}'s options. */
  static List<AppSpec> split(List<String> command, AppSpec first) {
    List<List<String>> segments = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (String a : command) {
      if (a.equals(SEPARATOR)) {
        segments.add(current);
        current = new ArrayList<>();
      } else {
        current.add(a);
      }
    }
    segments.add(current);
    List<AppSpec> apps = new ArrayList<>();
    for (int i = 0; i < segments.size(); i++) {
      AppSpec a = i == 0 ? first.withArgv(segments.get(0)) : segment(segments.get(i));
      check(a);
      apps.add(a);
    }
    return apps;
  }

  /** An appfile: one app a line, {@code #} starts a comment, blank lines are skipped. */
  static List<AppSpec> appFile(List<String> lines) {
    List<AppSpec> apps = new ArrayList<>();
    for (String line : lines) {
      int hash = line.indexOf('#');
      String text = (hash < 0 ? line : line.substring(0, hash)).strip();
      if (!text.isEmpty()) {
        AppSpec a = segment(List.of(text.split("\\s+")));
        check(a);
        apps.add(a);
      }
    }
    if (apps.isEmpty()) {
      throw new IllegalArgumentException("--app FILE names no program");
    }
    return apps;
  }

  /** One app's words: its own options, then its program and arguments. */
  private static AppSpec segment(List<String> words) {
    int procs = 1;
    String wdir = null;
    List<Directive> directives = new ArrayList<>();
    int i = 0;
    for (; i < words.size() && words.get(i).startsWith("-"); i++) {
      String o = words.get(i);
      if (o.equals("--")) {
        i++;
        break;
      }
      int needs = o.equals("--prepend-env") || o.equals("--append-env") ? 2 : 1;
      List<String> values = words.subList(i + 1, Math.min(words.size(), i + 1 + needs));
      if (values.size() < needs) {
        throw new IllegalArgumentException(o + " takes a value");
      }
      switch (o) {
        case "-n", "--np", "-np" -> procs = count(values.get(0));
        case "--wdir", "--chdir" -> wdir = values.get(0);
        case "-x",
            "--set-env",
            "--setenv",
            "--unset-env",
            "--unsetenv",
            "--prepend-env",
            "--append-env" ->
            directives.add(directive(o, values));
        default ->
            throw new IllegalArgumentException(
                o
                    + " is not an option of one app (-n, -x, --wdir, --set-env, --unset-env,"
                    + " --prepend-env, --append-env): give the job's options before the first"
                    + " program");
      }
      i += needs;
    }
    return new AppSpec(procs, directives, wdir, words.subList(i, words.size()));
  }

  private static int count(String s) {
    try {
      int n = Integer.parseInt(s);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("-n must be at least 1, not \"" + s + "\"");
  }

  private static void check(AppSpec a) {
    if (a.argv().isEmpty()) {
      throw new IllegalArgumentException("an app without a program (around a ':')");
    }
    if (a.wdir() != null) {
      directory(a.wdir());
    }
  }

  /** {@code --wdir DIR} as an absolute path, refused unless it is a directory here. */
  static Path directory(String dir) {
    Path p;
    try {
      p = Path.of(System.getProperty("user.dir")).resolve(dir).normalize();
    } catch (java.nio.file.InvalidPathException e) {
      throw new IllegalArgumentException("--wdir " + dir + ": not a path");
    }
    if (!Files.exists(p)) {
      throw new IllegalArgumentException("--wdir " + dir + ": no such directory");
    }
    if (!Files.isDirectory(p)) {
      throw new IllegalArgumentException("--wdir " + dir + ": not a directory");
    }
    return p;
  }

  /** {@code --export}'s value: ALL, NONE, or names and NAME=VALUE, comma-separated. */
  static void checkExport(String export) {
    if (export == null) {
      return;
    }
    for (String item : export.split(",", -1)) {
      String name = item.indexOf('=') < 0 ? item : item.substring(0, item.indexOf('='));
      if (name.isEmpty()) {
        throw new IllegalArgumentException("--export takes ALL, NONE or VAR[,VAR=VALUE...]");
      }
    }
  }

  /**
   * This command's environment for one app, as {@code --export} says (default: all of it), without
   * PMIx's, simple PMI's and jdvm's own variables, so a {@code jdvm run} inside a job does not hand
   * its own wire-up on.
   */
  static void forward(SpawnRequest.Builder b, Map<String, String> environ, String export) {
    List<String> items = export == null ? List.of("ALL") : List.of(export.split(","));
    boolean all = items.contains("ALL");
    for (Map.Entry<String, String> e : environ.entrySet()) {
      if ((all || items.contains(e.getKey())) && !reserved(e.getKey())) {
        b.env(e.getKey(), e.getValue());
      }
    }
    for (String item : items) {
      int eq = item.indexOf('=');
      if (eq > 0 && !reserved(item.substring(0, eq))) {
        b.env(item.substring(0, eq), item.substring(eq + 1));
      }
    }
  }

  private static boolean reserved(String name) {
    return name.startsWith("PMIX_") || name.startsWith("JDVM_") || name.startsWith("PMI_");
  }

  /**
   * One app's environment options, in order: {@code -x} as entries of the app's environment
   * (mpirun's; {@code -x VAR} of an unset VAR forwards nothing, with mpirun's warning), the others
   * as PMIx directives.
   */
  static void directives(
      SpawnRequest.Builder b, List<Directive> ds, Map<String, String> environ, PrintStream err) {
    for (Directive d : ds) {
      switch (d.kind()) {
        case "-x" -> {
          String value = d.value() != null ? d.value() : environ.get(d.name());
          if (value == null) {
            err.println(
                "jdvm run: warning: could not find environment variable \"" + d.name() + "\"");
          } else {
            b.env(d.name(), value);
          }
        }
        case "--set-env" -> b.setEnv(d.name(), d.value());
        case "--unset-env" -> b.unsetEnv(d.name());
        case "--prepend-env" -> b.prependEnv(d.name(), d.value(), d.separator());
        default -> b.appendEnv(d.name(), d.value(), d.separator());
      }
    }
  }
}
