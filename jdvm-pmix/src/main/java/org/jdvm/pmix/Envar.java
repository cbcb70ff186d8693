package org.jdvm.pmix;

/**
 * An environment-variable directive ({@code pmix_envar_t}): prepend/append {@code value} to {@code
 * envar} with {@code separator}, a single byte.
 */
public record Envar(String envar, String value, byte separator) {
  /** Names the variable, never the value, which may be a secret: this is what reaches a log. */
  @Override
  public String toString() {
    return "Envar[envar=" + envar + ", separator=" + separator + "]";
  }
}
