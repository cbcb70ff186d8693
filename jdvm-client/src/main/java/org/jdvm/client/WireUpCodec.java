package org.jdvm.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdvm.pmix.ByteObject;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PackedBuffer;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;
import org.jdvm.pmix.frame.Commands;

/**
 * The wire-up messages exactly as a libpmix 4.2.2 client lays them out (docs/wireup.md §c), and
 * their replies: pure functions of their arguments, so each layout is tested against the document's
 * bytes. Commands: COMMIT 2, FENCENB 3, GETNB 4, PUBLISHNB 6, LOOKUPNB 7, UNPUBLISHNB 8, CONNECTNB
 * 10, DISCONNECTNB 11, LOG 16, IOF_PUSH 23.
 */
final class WireUpCodec {
  /** {@code pmix_scope_t} on the wire: LOCAL and REMOTE sections of a commit. */
  static final int SCOPE_LOCAL = 1;

  static final int SCOPE_REMOTE = 2;

  private WireUpCodec() {}

  /**
   * COMMIT (§c.1): {@code CMD 2}, then, when there are any, {@code SCOPE 1 | BUFFER} of the LOCAL
   * keys and {@code SCOPE 2 | BUFFER} of the REMOTE keys; each BUFFER holds KVAL units in the
   * client's own buffer type. {@code null} sections (nothing put since the last commit) are left
   * out.
   */
  static byte[] commit(WireFormat f, List<KVal> local, List<KVal> remote) {
    Packer p = new Packer(f).packCommand(Commands.COMMIT_CMD);
    section(p, SCOPE_LOCAL, local);
    section(p, SCOPE_REMOTE, remote);
    return p.toByteArray();
  }

  private static void section(Packer p, int scope, List<KVal> kvals) {
    if (kvals == null || kvals.isEmpty()) {
      return;
    }
    Packer inner = new Packer(p.format());
    for (KVal k : kvals) {
      inner.pack(DataType.KVAL, k);
    }
    p.packInteger(DataType.SCOPE, scope);
    p.packBuffer(new PackedBuffer(p.format().bufferType(), ByteObject.of(inner.toByteArray())));
  }

  /** FENCENB (§c.2): {@code CMD 3 | SIZE n | PROC×n | SIZE m | INFO×m (absent if 0)}. */
  static byte[] fence(WireFormat f, List<Proc> procs, List<Info> directives) {
    Packer p = new Packer(f).packCommand(Commands.FENCENB_CMD).packSize(procs.size());
    if (!procs.isEmpty()) {
      p.pack(DataType.PROC, procs);
    }
    return p.packInfos(directives).toByteArray();
  }

  /**
   * GETNB (§c.3): {@code CMD 4 | STRING nspace | PROC_RANK rank | SIZE n | INFO×n (absent if 0) |
   * STRING key (absent for a NULL key)}.
   */
  static byte[] get(WireFormat f, Proc proc, String key, List<Info> directives) {
    Packer p =
        new Packer(f)
            .packCommand(Commands.GETNB_CMD)
            .packString(proc.nspace())
            .packInteger(DataType.PROC_RANK, Integer.toUnsignedLong(proc.rank()))
            .packInfos(directives);
    if (key != null) {
      p.packString(key);
    }
    return p.toByteArray();
  }

  /**
   * A GETNB or CONNECT reply's blobs: {@code STATUS}, then (on SUCCESS) BYTE_OBJECT units to the
   * end, each a {@code PROC} (GETNB) or {@code STRING nspace} (CONNECT) unit followed by KVAL
   * units. An error STATUS alone throws it.
   */
  static Map<Proc, List<KVal>> blobs(Unpacker in, boolean byNamespace) throws PmixException {
    int status = in.unpackStatus();
    if (status != PmixStatus.SUCCESS) {
      throw new PmixException(status, byNamespace ? "connect refused" : "get refused");
    }
    Map<Proc, List<KVal>> out = new LinkedHashMap<>();
    while (in.hasRemaining()) {
      ByteObject blob = (ByteObject) in.unpackOne(DataType.BYTE_OBJECT);
      Unpacker b = new Unpacker(in.format(), blob.toByteArray());
      Proc owner = byNamespace ? Proc.wildcard(b.unpackString()) : b.unpackProc();
      List<KVal> kvals = new ArrayList<>();
      while (b.hasRemaining()) {
        kvals.add((KVal) b.unpackOne(DataType.KVAL));
      }
      out.computeIfAbsent(owner, k -> new ArrayList<>()).addAll(kvals);
    }
    return out;
  }

  /**
   * PUBLISHNB (§c.4): {@code CMD 6 | UINT32 effective uid | SIZE n | INFO×n}; the infos are the
   * data followed by the directives (range, persistence).
   */
  static byte[] publish(WireFormat f, long uid, List<Info> dataAndDirectives) {
    return new Packer(f)
        .packCommand(Commands.PUBLISHNB_CMD)
        .packInteger(DataType.UINT32, uid)
        .packInfos(dataAndDirectives)
        .toByteArray();
  }

  /**
   * LOOKUPNB (§c.4) and UNPUBLISHNB: {@code CMD 7|8 | UINT32 uid | SIZE nkeys | one STRING unit per
   * key | SIZE n | INFO×n (absent if 0)}.
   */
  static byte[] keys(WireFormat f, int command, long uid, List<String> keys, List<Info> dirs) {
    Packer p =
        new Packer(f).packCommand(command).packInteger(DataType.UINT32, uid).packSize(keys.size());
    for (String k : keys) {
      p.packString(k);
    }
    return p.packInfos(dirs).toByteArray();
  }

  /** A lookup reply: {@code STATUS}, then (on SUCCESS) {@code SIZE n | PDATA×n (absent if 0)}. */
  static List<PData> lookupReply(Unpacker in) throws PmixException {
    int status = in.unpackStatus();
    if (status != PmixStatus.SUCCESS) {
      throw new PmixException(status, "lookup refused");
    }
    long n = in.unpackSize();
    List<PData> out = new ArrayList<>();
    if (n > 0) {
      for (Object o : in.unpack(DataType.PDATA)) {
        out.add((PData) o);
      }
      if (out.size() != n) {
        throw WireException.message(
            PmixStatus.ERR_UNPACK_FAILURE, in.position(), "SIZE " + n + " but " + out.size());
      }
    }
    return out;
  }

  /** CONNECTNB, DISCONNECTNB (§c.5): {@code CMD 10|11 | SIZE n | PROC×n | SIZE m | INFO×m}. */
  static byte[] connect(WireFormat f, int command, List<Proc> procs, List<Info> directives) {
    Packer p = new Packer(f).packCommand(command).packSize(procs.size());
    if (!procs.isEmpty()) {
      p.pack(DataType.PROC, procs);
    }
    return p.packInfos(directives).toByteArray();
  }

  /**
   * LOG (§c.6): {@code CMD 16 | TIME timestamp (0 = none) | SIZE n | INFO×n | SIZE m | INFO×m
   * (absent if 0)}.
   */
  static byte[] log(WireFormat f, long timestamp, List<Info> data, List<Info> directives) {
    return new Packer(f)
        .packCommand(Commands.LOG_CMD)
        .packInteger(DataType.TIME, timestamp)
        .packInfos(data)
        .packInfos(directives)
        .toByteArray();
  }

  /**
   * IOF_PUSH (§c.7): {@code CMD 23 | SIZE n | PROC×n | SIZE m | INFO×m (absent if 0) | BYTE_OBJECT
   * data}; an empty data unit is the end of file.
   */
  static byte[] push(WireFormat f, List<Proc> targets, List<Info> directives, byte[] data) {
    Packer p = new Packer(f, data.length + 96).packCommand(Commands.IOF_PUSH_CMD);
    p.packSize(targets.size());
    if (!targets.isEmpty()) {
      p.pack(DataType.PROC, targets);
    }
    return p.packInfos(directives).pack(DataType.BYTE_OBJECT, ByteObject.of(data)).toByteArray();
  }

  /** The value under {@code key} among {@code kvals}, or {@code null}. */
  static Value find(List<KVal> kvals, String key) {
    if (kvals == null) {
      return null;
    }
    Value found = null;
    for (KVal k : kvals) {
      if (key.equals(k.key())) {
        found = k.value(); // a later blob replaces an earlier one
      }
    }
    return found;
  }
}
