package io.weir.lab.operations;

import java.io.PrintStream;
import java.util.List;

/** The operations matrix as a table on standard output, one line per cell, and a summary line. */
public final class OperationsTable {
  private static final String ROW = "%-22s | %-13s | %-7s | %-26s | %-6s | %s%n";

  private OperationsTable() {}

  public static void print(List<OperationCellResult> results, PrintStream out) {
    out.printf(ROW, "operation", "job", "on", "outcome", "passed", "in / out / failure");
    for (OperationCellResult result : results) {
      OperationOutcome outcome = result.outcome();
      out.printf(
          ROW,
          result.operation(),
          result.job(),
          result.deployment(),
          outcome.label(),
          result.passed() ? "yes" : "NO",
          "in="
              + outcome.in()
              + " out="
              + outcome.out()
              + (outcome.failure() == null ? "" : " " + outcome.failure()));
    }
    long passed = results.stream().filter(OperationCellResult::passed).count();
    out.println("operations: " + passed + " of " + results.size() + " cells passed");
    out.flush();
  }
}
