package org.jdvm.pmix.codec;

import org.jdvm.pmix.Value;

/**
 * The five operations pmix-allocation-inheritance.txt "Library support" requires the library to
 * provide for every type, in one place: pack ({@link Packer}), unpack ({@link Unpacker}), and the
 * three below.
 *
 * <p>Copy: values and everything they hold are immutable (records over unmodifiable lists, {@link
 * String}s, boxed numbers, and {@link org.jdvm.pmix.ByteObject}s that copy their bytes in and out),
 * so a copy shares the original and no later change to either is possible. That is {@code
 * PMIx_Value_xfer}'s deep-copy contract without the copying.
 */
public final class ValueOps {
  private ValueOps() {}

  /** {@code PMIx_Value_xfer}: a value equal to {@code source} and independent of it. */
  public static Value copy(Value source) {
    return source;
  }

  /** {@code PMIx_Value_compare}. */
  public static ValueComparison compare(Value v1, Value v2) {
    return ValueComparison.compare(v1, v2);
  }

  /** {@code PMIx_Data_print} of a value, on one line. */
  public static String print(Value value) {
    return DataPrinter.print(value);
  }
}
