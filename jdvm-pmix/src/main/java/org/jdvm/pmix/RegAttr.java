package org.jdvm.pmix;

import java.util.List;

/**
 * A registered attribute ({@code pmix_regattr_t}): C name, key string, data type code and
 * description lines. The type field is decoded as unsigned (pmix-wire.md §6 #1: libpmix's own
 * unpacker misreads it as INT16; jdvm reads what the sender meant).
 */
public record RegAttr(String name, String string, int type, List<String> description) {
  public RegAttr {
    description = List.copyOf(description);
  }
}
