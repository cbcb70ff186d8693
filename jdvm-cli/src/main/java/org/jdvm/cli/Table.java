package org.jdvm.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table for people: a header row and left-aligned columns two spaces apart. */
final class Table {
  private final List<String[]> rows = new ArrayList<>();

  Table(String... header) {
    rows.add(header);
  }

  Table row(Object... cells) {
    String[] r = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      r[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
    }
    rows.add(r);
    return this;
  }

  void print(PrintStream out) {
    for (String line : lines()) {
      out.println(line);
    }
  }

  /** The table's lines, the header first, without trailing blanks. */
  List<String> lines() {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) {
      for (int i = 0; i < cols; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    List<String> out = new ArrayList<>();
    for (String[] r : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        sb.append(r[i]);
        if (i < cols - 1) {
          sb.append(" ".repeat(width[i] - r[i].length() + 2));
        }
      }
      out.add(sb.toString().stripTrailing());
    }
    return out;
  }
}
