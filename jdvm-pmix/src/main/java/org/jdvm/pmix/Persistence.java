package org.jdvm.pmix;

/**
 * How long published data is kept ({@code pmix_persistence_t}, wire type PERSIST, one byte): the
 * codes of {@code pmix_common.h}, the same in 4.2.2 and master.
 */
public enum Persistence {
  /** Until it is unpublished. */
  INDEF(0),
  /** Until a lookup returns it once (what Open MPI publishes everything with). */
  FIRST_READ(1),
  /** Until its publisher ends. */
  PROC(2),
  /** Until its publisher's job ends: the PMIx Standard's default. */
  APP(3),
  /** Until its publisher's session ends. */
  SESSION(4);

  private final int code;

  Persistence(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The persistence for a wire value, or {@code null} if PMIx defines none. */
  public static Persistence fromCode(int code) {
    for (Persistence p : values()) {
      if (p.code == code) {
        return p;
      }
    }
    return null;
  }
}
