package org.jdvm.endpoint.pmi;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jdvm.pmix.Proc;

/**
 * The {@code PMI_ID} of each launched process (docs/protocol.md "Simple PMI"): a positive number
 * minted when its environment is built, which it claims in its {@code initack} and the kernel then
 * proves (the process holding the socket is the one launched under that name, or its descendant).
 * The number only names a claim; it proves nothing by itself. A job's numbers are forgotten when it
 * ends, so the table holds one entry per live launched process.
 *
 * <p>Thread-safe.
 */
public final class PmiIds {
  private final Map<Integer, Proc> procs = new HashMap<>();
  private final Map<Proc, Integer> ids = new HashMap<>();
  private int next = 1;

  /** {@code proc}'s number: the same on every call until its job is forgotten. */
  public synchronized int idOf(Proc proc) {
    Integer id = ids.get(proc);
    if (id != null) {
      return id;
    }
    while (procs.containsKey(next)) {
      next = next == Integer.MAX_VALUE ? 1 : next + 1;
    }
    int minted = next;
    next = next == Integer.MAX_VALUE ? 1 : next + 1;
    procs.put(minted, proc);
    ids.put(proc, minted);
    return minted;
  }

  /** The process {@code id} was minted for, if its job is not forgotten. */
  public synchronized Optional<Proc> procOf(int id) {
    return Optional.ofNullable(procs.get(id));
  }

  /** Forgets the numbers of {@code nspace}'s processes (the job ended). */
  public synchronized void forget(String nspace) {
    ids.keySet().removeIf(p -> p.nspace().equals(nspace));
    procs.values().removeIf(p -> p.nspace().equals(nspace));
  }

  /** How many numbers are held, for tests. */
  public synchronized int size() {
    return ids.size();
  }
}
