package org.jdvm.pmix;

import java.util.List;

/**
 * A fabric coordinate ({@code pmix_coord_t}): a view byte and unsigned 32-bit coordinates held as
 * longs.
 */
public record Coord(int view, List<Long> coordinates) {
  public Coord {
    coordinates = List.copyOf(coordinates);
  }
}
