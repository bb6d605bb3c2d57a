package dev.mlv.pyspark;

import dev.mlv.diag.Position;
import java.util.List;

/**
 * One cell of a notebook or of a .py file split into cells, in order. {@code lines[i]} is where
 * line {@code i + 1} of the cell's text starts in the file, so that diagnostics point into the file
 * the user edits, .py or .ipynb alike. {@code explicit} is false for a plain .py file without cell
 * markers, which mlv splits into cells itself.
 */
record Cell(int index, String text, List<Position> lines, boolean explicit) {

  Cell {
    lines = List.copyOf(lines);
  }

  /** The file position of a 1-based line and column of the cell's text. */
  Position at(int line, int column) {
    if (lines.isEmpty()) {
      return new Position(null, line, column);
    }
    int i = Math.max(0, Math.min(line - 1, lines.size() - 1));
    Position p = lines.get(i);
    int extra = line - 1 - i;
    return new Position(p.file(), p.line() + extra, p.column() + column - 1);
  }
}
