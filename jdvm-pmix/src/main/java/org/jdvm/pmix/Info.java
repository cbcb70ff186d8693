package org.jdvm.pmix;

import java.util.Objects;

/**
 * A key with a value and directive flags ({@code pmix_info_t}, pmix-wire.md §4.2).
 *
 * <p>Keys travel as strings of at most {@link #MAX_KEYLEN} characters. Of the flags, only {@link
 * #REQUIRED} carries meaning between peers; {@link #ARRAY_END} is a C-side marker. Unknown bits are
 * kept as received, and {@link #isRequired()} reads only its own bit.
 */
public record Info(String key, int flags, Value value) {
  /** {@code PMIX_MAX_KEYLEN}. */
  public static final int MAX_KEYLEN = 511;

  public static final int REQUIRED = 0x1;
  public static final int ARRAY_END = 0x2;
  public static final int REQUIRED_PROCESSED = 0x4;
  public static final int QUALIFIER = 0x8;
  public static final int PERSISTENT = 0x10;

  public Info {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }

  /** An info without flags. */
  public static Info of(String key, Value value) {
    return new Info(key, 0, value);
  }

  /** An info marked required: the receiver must refuse the request if it cannot honour it. */
  public static Info required(String key, Value value) {
    return new Info(key, REQUIRED, value);
  }

  public boolean isRequired() {
    return (flags & REQUIRED) != 0;
  }
}
