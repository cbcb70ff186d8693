package org.jdvm.pmix;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A typed array ({@code pmix_data_array_t}, pmix-wire.md §4.3): an element type and the elements in
 * that type's Java representation (see {@link Value}).
 *
 * <p>An array of element type {@link DataType#UNDEF} has a declared size but no elements; its
 * layout changed between PMIx versions, so jdvm decodes it but never sends one.
 */
public record DataArray(DataType type, int size, List<Object> elements) {
  public DataArray {
    Objects.requireNonNull(type, "type");
    if (type == DataType.UNDEF) {
      if (!elements.isEmpty()) {
        throw new IllegalArgumentException("an UNDEF-typed array has no elements");
      }
      if (size < 0) {
        throw new IllegalArgumentException("negative size");
      }
      elements = List.of();
    } else {
      elements = Collections.unmodifiableList(new java.util.ArrayList<>(elements));
      if (size != elements.size()) {
        throw new IllegalArgumentException(
            "size " + size + " but " + elements.size() + " elements");
      }
      for (Object e : elements) {
        Value.checkRepresentation(type, e);
      }
    }
  }

  /** An array of these elements. */
  public static DataArray of(DataType type, List<?> elements) {
    @SuppressWarnings("unchecked")
    List<Object> list = (List<Object>) elements;
    return new DataArray(type, elements.size(), list);
  }

  /** An array of strings, as {@code PMIX_SPAWN_TARGET} carries several allocation ids. */
  public static DataArray ofStrings(List<String> strings) {
    return of(DataType.STRING, strings);
  }

  /** An array of infos, as PMIx nests attribute groups. */
  public static DataArray ofInfos(List<Info> infos) {
    return of(DataType.INFO, infos);
  }

  /** The elements as a list of this type; throws if the element type differs. */
  @SuppressWarnings("unchecked")
  public <T> List<T> elementsAs(Class<T> javaType) {
    for (Object e : elements) {
      if (e != null && !javaType.isInstance(e)) {
        throw new ClassCastException(type + " array does not hold " + javaType.getSimpleName());
      }
    }
    return (List<T>) elements;
  }
}
