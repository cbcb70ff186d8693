package org.jdvm.pmix;

/**
 * What becomes of an allocation when its owning namespace terminates ({@code
 * pmix_alloc_inheritance_t}, wire type {@link DataType#ALLOC_INHERIT} = 75, one byte).
 *
 * <p>pmix-allocation-inheritance.txt "The data type"; spec §8.2.1.9.2. The two axes: when the
 * disposition fires (owning namespace, or last derived child) and what it does (return nodes to the
 * scheduler, or unreserve them within the session). Absence of the attribute means {@link
 * #DEFAULT}.
 */
public enum AllocInheritance {
  /** Released to the scheduler when the owning namespace terminates (the legacy behaviour). */
  NONE(1, false, true),
  /** Released to the scheduler when the last derived child has terminated. */
  CHILD(2, true, true),
  /** Unreserved within the session when the owning namespace terminates. */
  DEFAULT(3, false, false),
  /** Unreserved within the session when the last derived child has terminated. */
  CHILD_DEFAULT(4, true, false);

  private final int code;
  private final boolean waitsForDescendants;
  private final boolean returnsToScheduler;

  AllocInheritance(int code, boolean waitsForDescendants, boolean returnsToScheduler) {
    this.code = code;
    this.waitsForDescendants = waitsForDescendants;
    this.returnsToScheduler = returnsToScheduler;
  }

  /** The wire value (1–4). */
  public int code() {
    return code;
  }

  /** True for the CHILD-flavoured values: the disposition waits for the last derived child. */
  public boolean waitsForDescendants() {
    return waitsForDescendants;
  }

  /** True for NONE and CHILD: the nodes go back to the scheduler; else they are unreserved. */
  public boolean returnsToScheduler() {
    return returnsToScheduler;
  }

  /** The value for a wire byte, or {@code null} if it is not one of the four defined values. */
  public static AllocInheritance fromCode(int code) {
    return switch (code) {
      case 1 -> NONE;
      case 2 -> CHILD;
      case 3 -> DEFAULT;
      case 4 -> CHILD_DEFAULT;
      default -> null;
    };
  }

  /**
   * The contract of {@code PMIx_Alloc_inheritance_string}: the part of the value's name after
   * {@code INHERIT_} ("NONE", "CHILD", "DEFAULT", "CHILD_DEFAULT"), and "UNSPECIFIED" for any other
   * value. The returned strings are constants.
   */
  public static String toString(int code) {
    AllocInheritance i = fromCode(code);
    return i == null ? "UNSPECIFIED" : i.name();
  }
}
