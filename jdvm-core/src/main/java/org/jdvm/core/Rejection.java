package org.jdvm.core;

/**
 * Why a request was refused. Each operation has an enum of these whose declaration order is the
 * order the checks run in; each constant carries the PMIx status the requester sees. A rejected
 * request changes nothing (spec §8.2.1.8, §8.2.1.11 #3).
 */
public interface Rejection {
  /** The PMIx status of the reply. */
  int status();

  /** The constant's name, e.g. {@code EXTEND_NOT_OWNER}. */
  String name();
}
