package org.jdvm.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the citations in a text against the documents of a checkout, in the form
 * docs/spec/README.md "How to cite" documents: a document ({@code spec}, a file of {@code
 * docs/spec/}, or a path from the checkout's root) and its locators ({@code §N}, {@code #N}, {@code
 * §N #M}, {@code "Heading"}). A citation whose document or locator does not exist is a problem, and
 * so is one of the older forms that named no checkable place.
 */
final class Citations {
  private static final String LOCATOR = "§\\d+(?:\\.\\d+)*(?: #\\d+)?|#\\d+|\"[^\"]{1,80}\"";
  private static final Pattern CITATION =
      Pattern.compile(
          "(?<![\\w./-])([Ss]pec|[A-Za-z0-9_][\\w./-]*\\.(?:md|txt)) ((?:"
              + LOCATOR
              + ")(?:(?:, | and |–)(?:"
              + LOCATOR
              + "))*)");
  private static final Pattern ONE_LOCATOR = Pattern.compile(LOCATOR);

  /** A form that cites nothing checkable, and what to write instead. */
  private record OldForm(Pattern pattern, String advice) {}

  private static final List<OldForm> OLD_FORMS =
      List.of(
          new OldForm(
              Pattern.compile("\\bREPORT\\.md\\b"),
              "the research report is not in the checkout; cite pmix-interop-notes.md or pmix-wire.md"),
          new OldForm(
              Pattern.compile(
                  "(?<![\\w./-])(?:decisions|architecture|house-style|pmix-wire|prrte-behavior"
                      + "|pmix-interop-notes)\\.md,? \\d"),
              "a bare number: write §N for a section, #N for an item"),
          new OldForm(
              Pattern.compile(
                  "(?<![\\w-])(?:node-reservation[- ]spec(?:\\.txt)?|[Ss]pec)`?,? 8\\.\\d"),
              "a bare clause number: write spec §8.2.1.x"),
          new OldForm(Pattern.compile("(?<![\\w.-])[Dd]ecisions? #?\\d"), "write decisions.md #N"),
          new OldForm(
              Pattern.compile("\\bRFC ?0*5\\b"), "write rfc0005-allocation-api.txt with a locator"),
          new OldForm(
              Pattern.compile("(?i)\\bissues? #?\\d+"),
              "an issue is not in the checkout; cite the document that states the rule (a TODO may"
                  + " name its issue)"),
          new OldForm(
              Pattern.compile(
                  "(?<![\\w./-])(?:\\.\\./shared/|/work/shared|shared/spec\\b"
                      + "|design/(?:architecture|decisions|house-style)\\.md"
                      + "|reference/(?:wire/|pmix-wire|prrte-behavior|mpi-wireup|slurm-local))"),
              "a path into the team's shared folders; the documents are in docs/spec/"));

  private final Path root;
  private final Path spec;
  private final Map<Path, Document> documents = new HashMap<>();
  private int resolved;

  Citations(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.spec = this.root.resolve("docs/spec");
  }

  /** How many citations resolved so far. */
  int resolved() {
    return resolved;
  }

  /**
   * The problems in {@code text}, each as "file:line: what". Old forms are reported only if {@code
   * checkOldForms}: the team's documents, copied verbatim, keep their own way of referring.
   */
  List<String> check(String file, String text, boolean checkOldForms) {
    Flat flat = Flat.of(text);
    List<String> problems = new ArrayList<>();
    Matcher m = CITATION.matcher(flat.text);
    while (m.find()) {
      String problem = resolve(m.group(1), m.group(2));
      if (problem == null) {
        resolved++;
      } else {
        problems.add(file + ":" + flat.line(m.start()) + ": " + m.group() + ": " + problem);
      }
    }
    if (checkOldForms) {
      for (OldForm old : OLD_FORMS) {
        Matcher o = old.pattern().matcher(flat.text);
        while (o.find()) {
          int line = flat.line(o.start());
          if (!flat.lines[line - 1].contains("TODO")) {
            problems.add(file + ":" + line + ": \"" + o.group() + "\": " + old.advice());
          }
        }
      }
    }
    return problems;
  }

  /** Why {@code doc locators} does not resolve, or null if it does. */
  private String resolve(String doc, String locators) {
    Path path = doc.equalsIgnoreCase("spec") ? spec.resolve("node-reservation-spec.txt") : null;
    if (path == null) {
      Path inSpec = spec.resolve(doc).normalize();
      Path fromRoot = root.resolve(doc).normalize();
      path = Files.isRegularFile(inSpec) ? inSpec : fromRoot;
      if (!path.startsWith(root) || !Files.isRegularFile(path)) {
        return "no such document under docs/spec/ or the checkout";
      }
    }
    Document d = documents.computeIfAbsent(path, Document::read);
    Matcher l = ONE_LOCATOR.matcher(locators);
    while (l.find()) {
      if (!d.has(l.group())) {
        return l.group() + " is not in " + root.relativize(path);
      }
    }
    return null;
  }

  /**
   * A text with its lines joined by single spaces and each line's comment marker removed, so a
   * citation wrapped across lines of a comment reads as one; {@link #line} maps back.
   */
  private record Flat(String text, int[] starts, String[] lines) {
    private static final Pattern MARKER =
        Pattern.compile("^\\s*(?:/\\*\\*|/\\*|\\*/|\\*|//+|#+(?=\\s))?\\s*");

    static Flat of(String text) {
      String[] lines = text.split("\n", -1);
      int[] starts = new int[lines.length];
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < lines.length; i++) {
        starts[i] = b.length();
        b.append(MARKER.matcher(lines[i]).replaceFirst("").stripTrailing()).append(' ');
      }
      return new Flat(b.toString(), starts, lines);
    }

    /** The 1-based line of an offset into {@link #text}. */
    int line(int offset) {
      int i = 0;
      while (i + 1 < starts.length && starts[i + 1] <= offset) {
        i++;
      }
      return i + 1;
    }
  }

  /** What a document offers to cite: numbered sections, numbered items, headings and labels. */
  private record Document(
      Set<String> sections,
      Set<String> items,
      Map<String, Set<String>> itemsBySection,
      List<String> headings) {
    private static final Pattern ATX = Pattern.compile("^#{1,6}\\s+(.*)$");
    private static final Pattern UNDERLINE = Pattern.compile("^[=\\-~^*]{3,}\\s*$");
    private static final Pattern CLAUSE = Pattern.compile("^\\d+(?:\\.\\d+)+\\.?\\s+\\S.*$");
    private static final Pattern NUMBER = Pattern.compile("^(\\d+(?:\\.\\d+)*)\\.?(?:\\s|$)");
    private static final Pattern ITEM = Pattern.compile("^\\s*(\\d+)\\.\\s");
    private static final Pattern LABEL = Pattern.compile("^\\s*[*-]\\s+\\*\\*(.+?)\\*\\*");

    static Document read(Path path) {
      List<String> lines;
      try {
        lines = Files.readAllLines(path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      boolean text = path.toString().endsWith(".txt");
      Document d =
          new Document(new HashSet<>(), new HashSet<>(), new HashMap<>(), new ArrayList<>());
      String section = "";
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.stripLeading().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        if (fenced) {
          continue;
        }
        String heading = heading(lines, i, text);
        if (heading != null) {
          d.headings.add(heading);
          Matcher n = NUMBER.matcher(heading);
          if (n.find()) {
            section = n.group(1);
            d.sections.add(section);
          }
          continue;
        }
        Matcher item = ITEM.matcher(line);
        if (item.find()) {
          d.items.add(item.group(1));
          d.itemsBySection.computeIfAbsent(section, s -> new HashSet<>()).add(item.group(1));
        }
        Matcher label = LABEL.matcher(line);
        if (label.find()) {
          d.headings.add(label.group(1).replace("`", "").strip());
        }
      }
      return d;
    }

    /**
     * The title if line {@code i} is a heading: {@code # Title}, underlined, or (in a text file,
     * where nothing else starts so) a clause number like {@code 8.2.1.9.5.}.
     */
    private static String heading(List<String> lines, int i, boolean text) {
      String line = lines.get(i);
      Matcher atx = ATX.matcher(line);
      if (atx.matches()) {
        return atx.group(1).replace("`", "").strip();
      }
      boolean underlined =
          i + 1 < lines.size() && !line.isBlank() && UNDERLINE.matcher(lines.get(i + 1)).matches();
      if (underlined || text && CLAUSE.matcher(line).matches()) {
        return line.replace("`", "").strip();
      }
      return null;
    }

    boolean has(String locator) {
      if (locator.startsWith("\"")) {
        String wanted = locator.substring(1, locator.length() - 1);
        return headings.stream().anyMatch(h -> startsAsWord(h, wanted));
      }
      if (locator.startsWith("#")) {
        return items.contains(locator.substring(1));
      }
      String[] parts = locator.substring(1).split(" #");
      return sections.contains(parts[0])
          && (parts.length == 1
              || itemsBySection.getOrDefault(parts[0], Set.of()).contains(parts[1]));
    }

    private static boolean startsAsWord(String heading, String wanted) {
      return heading.startsWith(wanted)
          && (heading.length() == wanted.length()
              || !Character.isLetterOrDigit(heading.charAt(wanted.length())));
    }
  }
}
