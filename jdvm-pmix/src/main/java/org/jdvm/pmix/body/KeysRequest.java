package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * LOOKUPNB and UNPUBLISHNB, one layout (docs/wireup.md §c.4): {@code CMD 7|8 | UINT32 effective uid
 * | SIZE nkeys | one STRING unit per key | SIZE n | INFO×n}. A lookup is answered with a {@link
 * LookupReply}, an unpublish with a {@link StatusReply}; an unpublish of no keys is of everything
 * the caller published.
 *
 * @param command {@link Commands#LOOKUPNB_CMD} or {@link Commands#UNPUBLISHNB_CMD}
 * @param uid the effective uid the caller claims
 * @param keys the keys, as they came (a NULL string is {@code null})
 * @param directives the infos, as they came
 */
public record KeysRequest(int command, long uid, List<String> keys, List<Info> directives) {
  public KeysRequest {
    if (command != Commands.LOOKUPNB_CMD && command != Commands.UNPUBLISHNB_CMD) {
      throw new IllegalArgumentException("not a LOOKUPNB or UNPUBLISHNB: " + command);
    }
    keys = Collections.unmodifiableList(new ArrayList<>(keys));
    directives = List.copyOf(directives);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    Packer p =
        new Packer(format)
            .packCommand(command)
            .packInteger(DataType.UINT32, uid)
            .packSize(keys.size());
    for (String k : keys) {
      p.packString(k);
    }
    return p.packInfos(directives).toByteArray();
  }

  /**
   * The body after its command, which the caller read: {@link Checks#keys} judges the count before
   * any key is read, {@link Checks#key} each key as it is read. Bytes after the directives are left
   * unread.
   */
  public static <X extends Exception> KeysRequest read(Unpacker in, int command, Checks<X> checks)
      throws X {
    long uid = in.unpackInteger(DataType.UINT32);
    long n = in.unpackSize();
    checks.keys(n);
    List<String> keys = new ArrayList<>((int) Math.min(n, 16));
    for (long k = 0; k < n; k++) {
      String key = in.unpackString();
      checks.key(key);
      keys.add(key);
    }
    return new KeysRequest(command, uid, keys, Fields.readInfos(in, checks));
  }
}
