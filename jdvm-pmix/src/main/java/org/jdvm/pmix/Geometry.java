package org.jdvm.pmix;

import java.util.List;

/** A fabric device's geometry ({@code pmix_geometry_t}). */
public record Geometry(long fabric, String uuid, String osname, List<Coord> coordinates) {
  public Geometry {
    coordinates = List.copyOf(coordinates);
  }
}
