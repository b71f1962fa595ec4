package io.weir.cli.lab;

/** One measured cell of the operations matrix: an operation, the job it ran, what it ended in. */
record OperationCellResult(
    String operation, String job, Operation.Expectation expectation, OperationOutcome outcome) {

  /** Whether the cell ended as the operation must. */
  boolean passed() {
    return outcome.meets(expectation);
  }
}
