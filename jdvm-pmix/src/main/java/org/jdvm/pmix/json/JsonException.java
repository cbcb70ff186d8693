package org.jdvm.pmix.json;

/**
 * Malformed JSON text, or JSON whose shape is not what a PMIx type's form requires. The message
 * names the character offset (for syntax) or the path within the document (for shape).
 */
public final class JsonException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JsonException(String message) {
    super(message);
  }
}
