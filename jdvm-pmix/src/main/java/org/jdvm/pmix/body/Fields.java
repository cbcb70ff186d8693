package org.jdvm.pmix.body;

import java.util.ArrayList;
import java.util.List;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.codec.WireException;

/**
 * The counted lists most bodies are made of, written and read once for all of them: {@code SIZE n |
 * PROC×n} and {@code SIZE n | INFO×n}, each with no unit after the SIZE when n is 0, as libpmix
 * packs them.
 */
public final class Fields {
  private Fields() {}

  /** {@code SIZE n | PROC×n}: one PROC unit of all of them, none for none. */
  public static void writeProcs(Packer p, List<Proc> procs) {
    p.packSize(procs.size());
    if (!procs.isEmpty()) {
      p.pack(DataType.PROC, procs);
    }
  }

  /**
   * {@code SIZE n | PROC×n}; a unit holding other than n is {@code PMIX_ERR_UNPACK_FAILURE}. {@link
   * Checks#procs} judges the count once the list is read.
   */
  public static <X extends Exception> List<Proc> readProcs(Unpacker in, Checks<X> checks) throws X {
    long n = in.unpackSize();
    if (n == 0) {
      return List.of();
    }
    List<Object> values = in.unpack(DataType.PROC);
    if (values.size() != n) {
      throw WireException.message(
          PmixStatus.ERR_UNPACK_FAILURE, in.position(), "SIZE " + n + " but " + values.size());
    }
    checks.procs(values.size());
    List<Proc> procs = new ArrayList<>(values.size());
    for (Object v : values) {
      procs.add((Proc) v);
    }
    return procs;
  }

  /** {@code SIZE n | INFO×n}; {@link Checks#infos} judges the count once the list is read. */
  public static <X extends Exception> List<Info> readInfos(Unpacker in, Checks<X> checks) throws X {
    List<Info> infos = in.unpackInfos();
    checks.infos(infos.size());
    return infos;
  }
}
