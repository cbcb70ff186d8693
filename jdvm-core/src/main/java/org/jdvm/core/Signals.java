package org.jdvm.core;

import org.jdvm.pmix.Signal;

/**
 * The signal numbers {@code server/pmix/Translator} still reads from here; the table is {@link
 * Signal}, and the core itself uses it. Delete this class once Translator uses {@link Signal} too
 * (issue 9).
 */
public final class Signals {
  private Signals() {}

  public static final int STOP = Signal.STOP.number();
  public static final int CONT = Signal.CONT.number();
}
