package org.jdvm.endpoint.wireup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jdvm.pmix.Proc;

/**
 * The participants of one fence (docs/wireup.md §c.2): the processes it names, sorted with
 * duplicates removed, so that every participant naming the same set meets in the same collective
 * whatever its order (pmix_server_ops.c:959-960 sorts the same way), and the size of each namespace
 * it names, which says who a WILDCARD entry stands for.
 *
 * <p>As in libpmix, a set is what the participants wrote: {@code [(ns, WILDCARD)]} and the explicit
 * list of every rank of {@code ns} are two different collectives.
 *
 * @param procs the named processes, sorted by namespace then rank (WILDCARD first)
 * @param sizes every named namespace's number of ranks
 */
public record FenceSet(List<Proc> procs, Map<String, Integer> sizes) {
  private static final Comparator<Proc> ORDER =
      Comparator.comparing(Proc::nspace)
          .thenComparing(
              p -> p.rank() == Proc.RANK_WILDCARD ? -1L : Integer.toUnsignedLong(p.rank()));

  public FenceSet {
    procs = List.copyOf(procs);
    for (int i = 1; i < procs.size(); i++) {
      if (ORDER.compare(procs.get(i - 1), procs.get(i)) >= 0) {
        throw new IllegalArgumentException("procs must be sorted and distinct: " + procs);
      }
    }
    sizes = Map.copyOf(sizes);
    for (Proc p : procs) {
      Integer size = sizes.get(p.nspace());
      if (size == null) {
        throw new IllegalArgumentException("no size for " + p.nspace());
      }
      if (p.rank() != Proc.RANK_WILDCARD && Integer.toUnsignedLong(p.rank()) >= size) {
        throw new IllegalArgumentException(p + " is not a rank of a job of " + size);
      }
    }
  }

  /** The set {@code named} describes, sorted and without duplicates. */
  public static FenceSet of(List<Proc> named, Map<String, Integer> sizes) {
    Set<Proc> sorted = new TreeSet<>(ORDER);
    sorted.addAll(named);
    return new FenceSet(new ArrayList<>(sorted), sizes);
  }

  /** The namespaces named. */
  public Set<String> namespaces() {
    Set<String> names = new TreeSet<>();
    for (Proc p : procs) {
      names.add(p.nspace());
    }
    return names;
  }

  /** Whether {@code p} is a participant. */
  public boolean includes(Proc p) {
    return named(Proc.wildcard(p.nspace())) || named(p);
  }

  private boolean named(Proc p) {
    return Collections.binarySearch(procs, p, ORDER) >= 0;
  }

  /** How many processes take part. */
  public int count() {
    Map<String, Integer> perNamespace = new HashMap<>();
    for (Proc p : procs) {
      if (p.rank() == Proc.RANK_WILDCARD) {
        perNamespace.put(p.nspace(), sizes.get(p.nspace()));
      } else if (!named(Proc.wildcard(p.nspace()))) {
        perNamespace.merge(p.nspace(), 1, Integer::sum);
      }
    }
    int n = 0;
    for (int c : perNamespace.values()) {
      n += c;
    }
    return n;
  }
}
