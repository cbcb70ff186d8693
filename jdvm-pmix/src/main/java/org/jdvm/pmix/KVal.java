package org.jdvm.pmix;

import java.util.Objects;

/** A key and a value ({@code pmix_kval_t}); internal to PMIx but present in job-info replies. */
public record KVal(String key, Value value) {
  public KVal {
    Objects.requireNonNull(value, "value");
  }
}
