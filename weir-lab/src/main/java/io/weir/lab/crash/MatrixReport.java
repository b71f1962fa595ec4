package io.weir.lab.crash;

import io.weir.lab.CommitOrder;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * Prints the matrix in the seed's layout: one table per commit order, a row per crash point, a
 * column per recovery, each cell the measured outcome with the seed's beside it; then one line per
 * cell that differs from the seed, saying which transaction or offset made the difference.
 */
public final class MatrixReport {
  private static final int FIRST_COLUMN = 42;
  private static final int COLUMN = 44;

  private MatrixReport() {}

  public static void print(List<CellResult> results, PrintStream out) {
    for (CommitOrder order : CommitOrder.values()) {
      out.println();
      out.println("notify order: " + order.label());
      out.print(pad("crash point", FIRST_COLUMN));
      for (Recovery recovery : Recovery.values()) {
        out.print(" | " + pad(recovery.label(), COLUMN));
      }
      out.println();
      out.println("-".repeat(FIRST_COLUMN + Recovery.values().length * (COLUMN + 3)));
      for (CrashPoint crash : CrashPoint.of(order)) {
        out.print(pad(crash.label(), FIRST_COLUMN));
        for (Recovery recovery : Recovery.values()) {
          out.print(" | " + pad(cellText(find(results, crash, recovery)), COLUMN));
        }
        out.println();
      }
    }
    out.println();
    List<String> differences =
        results.stream().map(MatrixReport::difference).flatMap(Optional::stream).toList();
    out.println(
        differences.isEmpty()
            ? "every cell agrees with the seed"
            : "where Weir differs from the seed:");
    differences.forEach(line -> out.println("  " + line));
  }

  private static String cellText(Optional<CellResult> result) {
    return result
        .map(cell -> cell.outcome().label() + " (seed: " + cell.seedOutcome().label() + ")")
        .orElse("-");
  }

  private static Optional<CellResult> find(
      List<CellResult> results, CrashPoint crash, Recovery recovery) {
    return results.stream()
        .filter(result -> result.crash() == crash && result.recovery() == recovery)
        .findFirst();
  }

  private static Optional<String> difference(CellResult result) {
    if (result.agreesWithSeed()) {
      return Optional.empty();
    }
    String cell =
        result.crash().order().key() + "/" + result.crash().key() + "/" + result.recovery().key();
    return Optional.of(cell + ": " + Explanations.explain(result));
  }

  private static String pad(String text, int width) {
    return text.length() >= width ? text : text + " ".repeat(width - text.length());
  }
}
