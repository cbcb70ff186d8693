package org.jdvm.pmix.dict;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/attributes.md} is generated from the dictionary and committed; this test fails when
 * the two differ and says how to regenerate ({@code -Djdvm.rewrite=true} rewrites the file).
 */
class AttributesDocTest {
  /** Surefire runs in the module directory; the docs live at the repository root. */
  private static final Path DOC = Path.of("..", "docs", "attributes.md");

  @Test
  void theCommittedAttributesPageIsWhatTheDictionaryGenerates() throws IOException {
    String generated = AttributeDictionary.markdown();
    if (Boolean.getBoolean("jdvm.rewrite")) {
      Files.createDirectories(DOC.getParent());
      Files.writeString(DOC, generated, StandardCharsets.UTF_8);
    }
    String committed = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
    assertThat(committed)
        .as(
            "docs/attributes.md is not what the dictionary generates; regenerate it with"
                + " mvn -pl jdvm-pmix test -Dtest=AttributesDocTest -Djdvm.rewrite=true")
        .isEqualTo(generated);
  }
}
