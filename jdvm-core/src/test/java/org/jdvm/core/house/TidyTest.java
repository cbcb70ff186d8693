package org.jdvm.core.house;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The rooms stay small: in every module's main code no method is longer than {@value
 * #MAX_METHOD_LINES} lines (its name's line to its closing brace) and no file longer than {@value
 * #MAX_FILE_LINES}, unless it is listed below with the reason it is not split. An exception that no
 * longer needs its place is an error too, so the list never outlives the code.
 */
class TidyTest {
  static final int MAX_METHOD_LINES = 60;
  static final int MAX_FILE_LINES = 500;

  /** {@code File.java#method} → why it stays longer than the limit. */
  private static final Map<String, String> LONG_METHODS = Map.ofEntries();

  /** {@code File.java} → why it stays longer than the limit. */
  private static final Map<String, String> LONG_FILES =
      Map.ofEntries(
          Map.entry(
              "PmixStatus.java",
              "the PMIx status table as pmix_common.h has it: a constant, a code and a name per"
                  + " status; a table, not logic"),
          Map.entry(
              "Request.java",
              "the core's request vocabulary: one record per kind of request with its checks, in"
                  + " the one sealed interface the core switches over"),
          Map.entry(
              "JdvmClient.java",
              "the Java client's public face: every PMIx call in its blocking and future forms, a"
                  + " few lines each; the work is in Wire, WireUp and jdvm-pmix's body codecs"),
          Map.entry(
              "Connection.java",
              "the transport's one class: frames in, the bounded write queue and its direct send,"
                  + " output counted apart from replies (its pacing is OutputPace), and close,"
                  + " ordered by one lock (under 100 lines over)"),
          Map.entry(
              "PublishedData.java",
              "publish, lookup and unpublish with their waits, ranges and limits over one map"
                  + " under one monitor (70 lines over; each job's share is JobShares)"),
          Map.entry(
              "Journal.java",
              "the journal's one writer: segments, group commit, notes riding with the next write"
                  + " and snapshots share its monitor and the segment being written; the files"
                  + " themselves are JournalFiles"),
          Map.entry(
              "AgentHub.java",
              "the controller's side of every agent: the listener and handshake, the roster of"
                  + " expected and joined nodes, heartbeats (up, suspect, down) and the rejoin"
                  + " after a restart share its maps and its monitor thread"));

  private static final Pattern NAME_BEFORE_PAREN = Pattern.compile("(\\w+)\\s*$");
  private static final Pattern THROWS = Pattern.compile("\\)\\s*throws\\s+[\\w.,\\s<>]+$");
  private static final List<String> NOT_METHODS =
      List.of(
          "if",
          "for",
          "while",
          "switch",
          "catch",
          "synchronized",
          "try",
          "else",
          "do",
          "return",
          "throw",
          "case",
          "new",
          "super",
          "this");

  /** A method or constructor: its name and the lines it spans. */
  record Method(String name, int firstLine, int lastLine) {
    int lines() {
      return lastLine - firstLine + 1;
    }
  }

  @Test
  void noMethodIsLongerThanTheLimitWithoutAReason() {
    Map<String, Integer> found = new TreeMap<>();
    for (Sources.Source s : Sources.all()) {
      for (Method m : methods(s.code())) {
        if (m.lines() > MAX_METHOD_LINES) {
          found.merge(fileName(s) + "#" + m.name(), m.lines(), Math::max);
        }
      }
    }
    assertThat(unexplained(found, LONG_METHODS)).as("methods over " + MAX_METHOD_LINES).isEmpty();
    assertThat(stale(found, LONG_METHODS)).as("exceptions no longer needed").isEmpty();
  }

  @Test
  void noFileIsLongerThanTheLimitWithoutAReason() {
    Map<String, Integer> found = new TreeMap<>();
    for (Sources.Source s : Sources.all()) {
      int lines = (int) s.text().lines().count();
      if (lines > MAX_FILE_LINES) {
        found.put(fileName(s), lines);
      }
    }
    assertThat(unexplained(found, LONG_FILES)).as("files over " + MAX_FILE_LINES).isEmpty();
    assertThat(stale(found, LONG_FILES)).as("exceptions no longer needed").isEmpty();
  }

  @Test
  void theScanFindsMethodsAndOnlyMethods() {
    String code =
        Sources.code(
            """
            class A {
              @SuppressWarnings("x")
              A(int a) {
                if (a > 0) {
                  run(() -> {
                    x();
                  });
                }
                for (int i = 0; i < a; i++) {
                  new Object() {
                    void inner() throws java.io.IOException {
                    }
                  };
                }
              }
              record R(int b) {
                R {
                }
              }
              static {
              }
              <T> java.util.List<T> list(
                  java.util.Map<String, T> m) {
                return null;
              }
            }
            """);
    assertThat(methods(code))
        .containsExactly(
            new Method("inner", 11, 12), new Method("A", 3, 15), new Method("list", 22, 25));
  }

  /** The methods and constructors in {@code code} (comments and literals already removed). */
  static List<Method> methods(String code) {
    int[] lineAt = new int[code.length() + 1];
    for (int i = 0, line = 1; i <= code.length(); i++) {
      lineAt[i] = line;
      line += i < code.length() && code.charAt(i) == '\n' ? 1 : 0;
    }
    List<Method> out = new ArrayList<>();
    List<Method> open = new ArrayList<>();
    int last = 0;
    for (int i = 0; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '{') {
        open.add(declared(code, last, i, lineAt));
        last = i + 1;
      } else if (c == '}') {
        Method m = open.isEmpty() ? null : open.removeLast();
        if (m != null) {
          out.add(new Method(m.name(), m.firstLine(), lineAt[i]));
        }
        last = i + 1;
      } else if (c == ';') {
        last = i + 1;
      }
    }
    return out;
  }

  /** The method a block opening at {@code brace} belongs to, or {@code null} for another block. */
  private static Method declared(String code, int from, int brace, int[] lineAt) {
    String raw = code.substring(from, brace);
    int lead = from + raw.length() - raw.stripLeading().length();
    String header = raw.strip();
    Matcher t = THROWS.matcher(header);
    String h = t.find() ? header.substring(0, t.start() + 1) : header;
    if (!h.endsWith(")")) {
      return null;
    }
    int depth = 0;
    int open = -1;
    for (int j = h.length() - 1; j >= 0 && open < 0; j--) {
      char c = h.charAt(j);
      depth += c == ')' ? 1 : c == '(' ? -1 : 0;
      if (depth == 0) {
        open = j;
      }
    }
    Matcher name = open < 0 ? null : NAME_BEFORE_PAREN.matcher(h.substring(0, open));
    if (name == null || !name.find()) {
      return null;
    }
    String before = h.substring(0, name.start());
    if (NOT_METHODS.contains(name.group(1))
        || before.contains("=")
        || before.contains("->")
        || before.matches("(?s).*\\b(new|class|record|interface|enum|return)\\b.*")
        || before.strip().endsWith(".")) {
      return null;
    }
    return new Method(name.group(1), lineAt[lead + name.start()], 0);
  }

  private static String fileName(Sources.Source s) {
    return s.path().getFileName().toString();
  }

  private static List<String> unexplained(Map<String, Integer> found, Map<String, String> why) {
    List<String> out = new ArrayList<>();
    found.forEach(
        (k, lines) -> {
          if (!why.containsKey(k)) {
            out.add(k + ": " + lines + " lines");
          }
        });
    return out;
  }

  private static List<String> stale(Map<String, Integer> found, Map<String, String> why) {
    return why.keySet().stream().filter(k -> !found.containsKey(k)).sorted().toList();
  }
}
