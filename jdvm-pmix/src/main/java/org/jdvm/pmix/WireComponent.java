package org.jdvm.pmix;

/**
 * A bfrops wire component: the set of data types a peer can pack and unpack (pmix-wire.md §1, §5).
 *
 * <p>Both components use the same "flex" encoding; they differ only in which types they register. A
 * peer announces its component by name in the connect handshake, and the other side then uses that
 * component for all traffic with it. A 4.2.x or 5.x peer speaks {@code v41}; a master-era peer
 * speaks {@code v61}, the only component that carries {@link DataType#ALLOC_INHERIT}.
 */
public enum WireComponent {
  /** OpenPMIx 4.1 through 5.0: types up to 69. */
  V41("v41"),
  /** OpenPMIx master: adds DEVICE (70) through ALLOC_INHERIT (75). */
  V61("v61");

  private final String wireName;

  WireComponent(String wireName) {
    this.wireName = wireName;
  }

  /** The name sent in the handshake, e.g. {@code "v41"}. */
  public String wireName() {
    return wireName;
  }

  /**
   * Whether this component registers the type. Types that jdvm never sends or accepts (the
   * deprecated BUFFER and REGEX, and the 4.2.2-only statistics structs) are unsupported by both.
   */
  public boolean supports(DataType type) {
    return switch (type) {
      case BUFFER, REGEX, PROC_STATS, DISK_STATS, NET_STATS, NODE_STATS -> false;
      case DEVICE, RESBLOCK_DIRECTIVE, RESOURCE_UNIT, NODE_PID, REGEX2, ALLOC_INHERIT ->
          this == V61;
      default -> true;
    };
  }

  /** The component with this handshake name, or {@code null} if jdvm does not speak it. */
  public static WireComponent fromWireName(String name) {
    for (WireComponent c : values()) {
      if (c.wireName.equals(name)) {
        return c;
      }
    }
    return null;
  }
}
