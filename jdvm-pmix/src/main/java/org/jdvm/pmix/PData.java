package org.jdvm.pmix;

import java.util.Objects;

/** Published data ({@code pmix_pdata_t}): the publishing proc, a key and a value. */
public record PData(Proc proc, String key, Value value) {
  public PData {
    Objects.requireNonNull(proc, "proc");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }
}
