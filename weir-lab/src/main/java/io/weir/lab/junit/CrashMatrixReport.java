package io.weir.lab.junit;

import io.weir.lab.crash.CellResult;
import java.util.List;

/**
 * What the crash matrix measured, one line per cell: crash point, recovery and outcome ({@code
 * exactly-once}, {@code loss N}, {@code duplicates N}, or why the cell failed).
 */
public final class CrashMatrixReport {
  private final List<CellResult> cells;

  CrashMatrixReport(List<CellResult> cells) {
    this.cells = List.copyOf(cells);
  }

  public List<CellResult> cells() {
    return cells;
  }

  /** The cells that lost or duplicated a record, or could not be measured. */
  public List<CellResult> failedCells() {
    return cells.stream().filter(cell -> !cell.outcome().exactlyOnce()).toList();
  }

  /** Fails naming every cell that lost or duplicated a record, or could not be measured. */
  public void assertExactlyOnce() {
    List<CellResult> failed = failedCells();
    if (!failed.isEmpty()) {
      throw new AssertionError(
          "Not exactly once in "
              + failed.size()
              + " of "
              + cells.size()
              + " cells:\n"
              + String.join("\n", failed.stream().map(CrashMatrixReport::line).toList()));
    }
  }

  static String line(CellResult cell) {
    String outcome =
        cell.outcome().failure() != null
            ? "failed: " + cell.outcome().failure()
            : cell.outcome().label();
    return cell.crash().order().label()
        + " / "
        + cell.crash().label()
        + " / "
        + cell.recovery().label()
        + ": "
        + outcome;
  }

  @Override
  public String toString() {
    return String.join("\n", cells.stream().map(CrashMatrixReport::line).toList());
  }
}
