package io.weir.lab.operations;

/**
 * One measured cell of the operations matrix: an operation, the job it ran, where it ran it ({@code
 * local} or {@code cluster}), what it ended in.
 */
public record OperationCellResult(
    String operation,
    String job,
    String deployment,
    Operation.Expectation expectation,
    OperationOutcome outcome) {

  /** Whether the cell ended as the operation must. */
  public boolean passed() {
    return outcome.meets(expectation);
  }
}
