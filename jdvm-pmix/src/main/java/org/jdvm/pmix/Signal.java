package org.jdvm.pmix;

import java.util.Locale;

/**
 * The Linux signals by name and number: the one table with which every jdvm module names, parses
 * and sends a signal (architecture.md §5).
 *
 * <p>PMIx carries a signal as a plain integer ({@code PMIX_JOB_CTRL_SIGNAL}, {@code
 * PMIX_SESSION_SIGNAL}), so the numbers are the receiver's: Linux's generic numbering, which x86-64
 * and arm64 share (signal(7); alpha, MIPS and SPARC number some differently and are not targets).
 * The names are the POSIX ones without {@code SIG}, as {@code kill -l} prints them. Every number
 * from 1 to {@link #MAX_NUMBER} is a signal, also the real-time ones that have no name here; {@link
 * #isSignalNumber} is that check.
 *
 * <p>A shell reports a process a signal ended with exit status 128 + the signal ({@link
 * #shellExitStatus}).
 */
public enum Signal {
  HUP(1),
  INT(2),
  QUIT(3),
  ILL(4),
  TRAP(5),
  ABRT(6),
  BUS(7),
  FPE(8),
  KILL(9),
  USR1(10),
  SEGV(11),
  USR2(12),
  PIPE(13),
  ALRM(14),
  TERM(15),
  STKFLT(16),
  CHLD(17),
  CONT(18),
  STOP(19),
  TSTP(20),
  TTIN(21),
  TTOU(22),
  URG(23),
  XCPU(24),
  XFSZ(25),
  VTALRM(26),
  PROF(27),
  WINCH(28),
  IO(29),
  PWR(30),
  SYS(31);

  /** The highest signal number on Linux ({@code SIGRTMAX}, 64). */
  public static final int MAX_NUMBER = 64;

  /** What a shell adds to a signal's number to report the exit of a process it ended. */
  private static final int SHELL_SIGNAL_BASE = 128;

  private static final String PREFIX = "SIG";

  private static final Signal[] BY_NUMBER = new Signal[SYS.number + 1];

  static {
    for (Signal s : values()) {
      if (BY_NUMBER[s.number] != null) {
        throw new IllegalStateException("signal number " + s.number + " is listed twice");
      }
      BY_NUMBER[s.number] = s;
    }
  }

  private final int number;

  Signal(int number) {
    this.number = number;
  }

  /** The Linux number, e.g. 15 for {@link #TERM}. */
  public int number() {
    return number;
  }

  /** The C name, e.g. {@code SIGTERM}. */
  public String posixName() {
    return PREFIX + name();
  }

  /** The signal with this Linux number, or {@code null} if it has no name here. */
  public static Signal fromNumber(int number) {
    return number > 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
  }

  /**
   * The signal with this name, in any case, with or without {@code SIG} ("TERM", "SIGTERM",
   * "term"), or {@code null} if there is none.
   */
  public static Signal fromName(String name) {
    String upper = name.strip().toUpperCase(Locale.ROOT);
    String bare = upper.startsWith(PREFIX) ? upper.substring(PREFIX.length()) : upper;
    for (Signal s : values()) {
      if (s.name().equals(bare)) {
        return s;
      }
    }
    return null;
  }

  /**
   * A signal as a user writes it: a number ("15"), taken as it is (whether it is a signal is the
   * receiver's check, {@link #isSignalNumber}), or a name as {@link #fromName} reads it.
   *
   * @throws IllegalArgumentException if the text is neither
   */
  public static int parse(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException notANumber) {
      Signal s = fromName(text);
      if (s == null) {
        throw new IllegalArgumentException("unknown signal '" + text + "'");
      }
      return s.number;
    }
  }

  /** Whether a number is a Linux signal: 1 to {@link #MAX_NUMBER}, named here or not. */
  public static boolean isSignalNumber(int number) {
    return number >= 1 && number <= MAX_NUMBER;
  }

  /** The exit status a shell reports for a process this signal ended: 128 + the number. */
  public static int shellExitStatus(int signal) {
    return SHELL_SIGNAL_BASE + signal;
  }
}
