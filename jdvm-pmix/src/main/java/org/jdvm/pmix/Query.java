package org.jdvm.pmix;

import java.util.List;

/** One query of {@code PMIx_Query_info} ({@code pmix_query_t}): keys and qualifiers. */
public record Query(List<String> keys, List<Info> qualifiers) {
  public Query {
    keys = List.copyOf(keys);
    qualifiers = List.copyOf(qualifiers);
  }
}
