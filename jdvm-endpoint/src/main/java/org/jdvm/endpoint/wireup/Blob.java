package org.jdvm.endpoint.wireup;

import java.util.List;
import java.util.Objects;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.Proc;

/**
 * One process's data as a GETNB reply carries it (docs/wireup.md §c.3): a {@code BYTE_OBJECT}
 * holding the {@code PROC} and then its {@code KVAL}s. Rank WILDCARD means the job's data.
 */
public record Blob(Proc proc, List<KVal> kvals) {
  public Blob {
    Objects.requireNonNull(proc, "proc");
    kvals = List.copyOf(kvals);
  }
}
