package org.jdvm.pmix;

/**
 * A {@code void*}. Pointers are meaningless between processes: a pack call writes one sentinel byte
 * for the whole call, and an unpack yields this placeholder.
 */
public enum Pointer {
  INSTANCE
}
