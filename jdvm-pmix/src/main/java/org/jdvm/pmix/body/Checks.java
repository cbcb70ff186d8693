package org.jdvm.pmix.body;

import org.jdvm.pmix.KVal;

/**
 * What a reader of a request checks while it reads, field by field: a server's limits and rules,
 * run as soon as the field they judge is read and before anything after it is. A request that is
 * both refused and malformed further on is then refused for the field that comes first, and a count
 * over a limit is refused before the list it announces is decoded.
 *
 * <p>Every check may throw {@code X}, which the body's {@code read} lets through; a reader that
 * takes what it reads as it is passes {@link #NONE}.
 *
 * @param <X> what a refusal throws
 */
public interface Checks<X extends Exception> {
  /** No checks: the body is taken as it was read. */
  Checks<RuntimeException> NONE = new Checks<>() {};

  /** A list of processes ({@code SIZE n | PROC×n}) was read, {@code count} long. */
  default void procs(int count) throws X {}

  /** A list of infos ({@code SIZE n | INFO×n}) was read, {@code count} long. */
  default void infos(int count) throws X {}

  /** A list of keys announces {@code count}, before any of them is read. */
  default void keys(long count) throws X {}

  /** One key of a list of keys was read; {@code null} for a NULL string. */
  default void key(String key) throws X {}

  /** One entry of a commit's buffer was read. */
  default void entry(KVal kval) throws X {}

  /** A commit's section was read whole: its scope, after its entries. */
  default void scope(int scope) throws X {}
}
