package org.jdvm.core.house;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every module's main sources, read once for the house tests: which module holds which package, and
 * which jdvm packages each file names (by import or fully qualified), with string literals and
 * comments left out so that a logger's name or a sentence is not a dependency.
 */
final class Sources {
  /** The repository: tests run in their module's directory. */
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");
  private static final Pattern REFERENCE = Pattern.compile("\\borg\\.jdvm(?:\\.[a-z]\\w*)+");

  /** One source file. */
  record Source(String module, Path path, String pkg, String text, String code) {
    String where() {
      return ROOT.relativize(path).toString();
    }
  }

  private static Map<String, List<Source>> byModule;

  private Sources() {}

  /** Module name → its main sources, for every module of the build. */
  static synchronized Map<String, List<Source>> byModule() {
    if (byModule == null) {
      byModule = read();
    }
    return byModule;
  }

  static List<Source> all() {
    return byModule().values().stream().flatMap(List::stream).toList();
  }

  /** Package → the module that declares it. */
  static Map<String, String> packages() {
    Map<String, String> out = new TreeMap<>();
    all().forEach(s -> out.put(s.pkg(), s.module()));
    return out;
  }

  /** The packages {@code s} names, each found among {@code known} by its longest prefix. */
  static TreeSet<String> referencedPackages(Source s, Map<String, String> known) {
    TreeSet<String> out = new TreeSet<>();
    Matcher m = REFERENCE.matcher(s.code());
    while (m.find()) {
      String t = m.group();
      while (!known.containsKey(t) && t.indexOf('.') >= 0) {
        t = t.substring(0, t.lastIndexOf('.'));
      }
      if (known.containsKey(t) && !t.equals(s.pkg())) {
        out.add(t);
      }
    }
    return out;
  }

  /** {@code text} without comments and with every string or character literal emptied. */
  static String code(String text) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (text.startsWith("\"\"\"", i)) {
        int end = text.indexOf("\"\"\"", i + 3);
        i = end < 0 ? n : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && text.charAt(j) != c && text.charAt(j) != '\n') {
          j += text.charAt(j) == '\\' ? 2 : 1;
        }
        out.append(c).append(c);
        i = j + 1;
      } else if (text.startsWith("//", i)) {
        int end = text.indexOf('\n', i);
        i = end < 0 ? n : end;
      } else if (text.startsWith("/*", i)) {
        int end = text.indexOf("*/", i + 2);
        String comment = text.substring(i, end < 0 ? n : end);
        comment.chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
        i = end < 0 ? n : end + 2;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static Map<String, List<Source>> read() {
    Map<String, List<Source>> out = new LinkedHashMap<>();
    try (Stream<Path> dirs = Files.list(ROOT)) {
      for (Path module : dirs.sorted().toList()) {
        Path main = module.resolve("src/main/java");
        if (!Files.isRegularFile(module.resolve("pom.xml")) || !Files.isDirectory(main)) {
          continue;
        }
        List<Source> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(main)) {
          for (Path p : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
            String text = Files.readString(p);
            Matcher m = PACKAGE.matcher(text);
            String pkg = m.find() ? m.group(1) : "";
            sources.add(new Source(module.getFileName().toString(), p, pkg, text, code(text)));
          }
        }
        out.put(module.getFileName().toString(), sources);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
