package org.jdvm.pmix;

import java.util.Objects;

/**
 * How one connection packs its bodies: the peer's wire component and buffer type.
 *
 * @param component which types may be packed ({@code v41} or {@code v61})
 * @param bufferType whether pack units carry type tags
 */
public record WireFormat(WireComponent component, BufferType bufferType) {
  /** What Debian's libpmix 4.2.2 speaks by default. */
  public static final WireFormat V41 = new WireFormat(WireComponent.V41, BufferType.NON_DESCRIBED);

  /** A master-era peer with default buffers. */
  public static final WireFormat V61 = new WireFormat(WireComponent.V61, BufferType.NON_DESCRIBED);

  public WireFormat {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(bufferType, "bufferType");
  }

  /** This format with another buffer type. */
  public WireFormat withBufferType(BufferType type) {
    return new WireFormat(component, type);
  }
}
