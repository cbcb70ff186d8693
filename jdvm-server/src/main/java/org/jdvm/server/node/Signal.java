package org.jdvm.server.node;

/**
 * The POSIX signals jdvm sends to processes, with their Linux numbers.
 *
 * <p>PMIx carries signals as plain integers ({@code PMIX_SESSION_SIGNAL}, job control); {@link
 * #fromNumber} maps the ones jdvm knows and {@link #number} keeps the integer for anything else.
 */
public enum Signal {
  HUP(1),
  INT(2),
  QUIT(3),
  KILL(9),
  USR1(10),
  USR2(12),
  TERM(15),
  CONT(18),
  STOP(19),
  TSTP(20);

  private final int number;

  Signal(int number) {
    this.number = number;
  }

  public int number() {
    return number;
  }

  /** The signal with this Linux number, or {@code null}. */
  public static Signal fromNumber(int number) {
    for (Signal s : values()) {
      if (s.number == number) {
        return s;
      }
    }
    return null;
  }
}
