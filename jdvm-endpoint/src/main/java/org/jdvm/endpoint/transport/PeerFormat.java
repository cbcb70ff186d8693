package org.jdvm.endpoint.transport;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireComponent;
import org.jdvm.pmix.WireFormat;

/**
 * What a peer can decode: the wire component it announced decides which types may reach it
 * (architecture.md §3: a {@code v41} peer never receives type 75).
 */
public final class PeerFormat {
  private PeerFormat() {}

  /**
   * The infos as a peer of this format can take them: a {@code v41} peer (libpmix 4.2) has no type
   * 75, so inheritance goes to it as UINT8, as it would send it.
   */
  public static List<Info> infos(List<Info> infos, WireFormat format) {
    if (format.component() == WireComponent.V61) {
      return infos;
    }
    List<Info> out = null;
    for (int k = 0; k < infos.size(); k++) {
      Info i = infos.get(k);
      if (i.value().type() == DataType.ALLOC_INHERIT) {
        if (out == null) {
          out = new ArrayList<>(infos);
        }
        out.set(k, new Info(i.key(), i.flags(), Value.uint8((int) i.value().asLong())));
      }
    }
    return out == null ? infos : out;
  }
}
