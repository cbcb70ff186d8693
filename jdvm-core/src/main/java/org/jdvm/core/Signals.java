package org.jdvm.core;

/** The Linux signal numbers the core asks the shell to send. */
public final class Signals {
  private Signals() {}

  public static final int KILL = 9;
  public static final int TERM = 15;
  public static final int CONT = 18;
  public static final int STOP = 19;
}
