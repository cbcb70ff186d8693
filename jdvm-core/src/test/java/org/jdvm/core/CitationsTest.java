package org.jdvm.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every citation in the checkout's code, tests and docs resolves inside the checkout
 * (docs/spec/README.md "How to cite"): the document exists under docs/spec/ (or at its path), and
 * so does every clause, section, item or heading it names. The older forms that named a document
 * outside the checkout, or no checkable place, fail too.
 */
class CitationsTest {
  /** The checkout's root; Maven runs a module's tests in the module's directory. */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Never scanned: they cite wrongly on purpose. */
  private static final List<String> EXAMPLES_OF_BAD_CITATIONS =
      List.of(
          "jdvm-core/src/test/java/org/jdvm/core/Citations.java",
          "jdvm-core/src/test/java/org/jdvm/core/CitationsTest.java");

  private final Citations citations = new Citations(ROOT);

  @Test
  void everyCitationInTheCheckoutResolvesInsideIt() throws IOException {
    assertTrue(
        Files.isRegularFile(ROOT.resolve("docs/spec/README.md")), "not the checkout: " + ROOT);
    List<String> problems = new ArrayList<>();
    int files = 0;
    for (Path p : sources()) {
      String file = ROOT.relativize(p).toString().replace('\\', '/');
      if (EXAMPLES_OF_BAD_CITATIONS.contains(file)) {
        continue;
      }
      files++;
      boolean teamDocument = file.startsWith("docs/spec/");
      problems.addAll(citations.check(file, Files.readString(p), !teamDocument));
    }
    assertEquals(List.of(), problems, String.join("\n", problems));
    assertTrue(files > 300, "scanned only " + files + " files");
    assertTrue(citations.resolved() > 300, "resolved only " + citations.resolved() + " citations");
  }

  /** The *.java, *.md and *.txt files of the checkout, outside build output and hidden folders. */
  private static List<Path> sources() throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(
        ROOT,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            String name = dir.getFileName().toString();
            boolean skip = !dir.equals(ROOT) && (name.equals("target") || name.startsWith("."));
            return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (file.getFileName().toString().matches(".*\\.(java|md|txt)")) {
              found.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    found.sort(null);
    return found;
  }

  @Test
  void citationsThatExistPass() {
    String text =
        """
        /**
         * (spec §8.2.1.9.5; spec §8.2.1.9.1 trigger 1; Spec §8.2.1.3–§8.2.1.9; decisions.md #11;
         * decisions.md #4–#8, #13; decisions.md #4 and #8; architecture.md §3–§4;
         * pmix-wire.md §9.3, §13; pmix-wire.md §6 #1; prrte-behavior.md §2 #1;
         * house-style.md "The core"; docs/protocol.md "Who a peer is"; docs/protocol.md "Listings";
         * pmix-allocation-inheritance.txt "The data type"; session-and-job-objects.txt §7.2.2;
         * rfc0005-allocation-api.txt "Description"; spec §8.2.1.11 #4; jdvm-core/README.md
         * "Measured cost"; docs/spec/pmix-wire.md §12.2; pmix-interop-notes.md §7)
         */
        """;
    assertEquals(List.of(), citations.check("Good.java", text, true));
  }

  @Test
  void aCitationOfSomethingThatDoesNotExistFailsNamingFileAndLine() {
    String[] bad = {
      "decisions.md #17",
      "decisions.md #4–#17",
      "spec §8.2.1.12",
      "spec §8.2.1.9.6",
      "spec §8.2.1.11 #8",
      "architecture.md §8",
      "pmix-wire.md §6 #11",
      "prrte-behavior.md §2.1",
      "house-style.md \"The shell\"",
      "docs/protocol.md \"Who a peer was\"",
      "nowhere.md §1",
      "research REPORT.md §3.2",
      "etc/../../passwd.txt §1",
    };
    for (String citation : bad) {
      List<String> problems =
          citations.check("Bad.java", "/**\n * x (" + citation + ").\n */", false);
      assertEquals(1, problems.size(), citation + " gave " + problems);
      assertTrue(problems.get(0).startsWith("Bad.java:2: "), problems.get(0));
    }
  }

  @Test
  void aCitationWrappedAcrossCommentLinesIsReadWholeAndReportedAtItsFirstLine() {
    String text = "line one\n * (see decisions.md\n * #17, the team's)\n";
    assertEquals(
        List.of("Bad.java:2: decisions.md #17: #17 is not in docs/spec/decisions.md"),
        citations.check("Bad.java", text, true));
    assertEquals(List.of(), citations.check("Good.txt", "# decisions.md\n# #16 and so on\n", true));
  }

  @Test
  void theOldFormsFailOutsideTheTeamsOwnDocuments() {
    String[] old = {
      "decisions.md 11",
      "the spec's decision 11",
      "Decisions 4 and 5",
      "spec 8.2.1.5",
      "node-reservation-spec 8.2.1.4",
      "RFC 0005",
      "issue 3 rule 4",
      "pmix-wire.md 9.3",
      "research REPORT.md",
      "`../shared/spec/node-reservation-spec.txt`",
      "{@code reference/wire/vectors.json}",
    };
    for (String citation : old) {
      assertEquals(1, citations.check("Old.md", "x " + citation + " y", true).size(), citation);
      assertEquals(List.of(), citations.check("docs/spec/x.md", citation, false), citation);
    }
    assertEquals(List.of(), citations.check("Todo.java", "// TODO(issue 12): later", true));
  }
}
