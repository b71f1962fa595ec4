package io.weir.lab.operations;

/**
 * One operation of the operations matrix (a rescale, a savepoint stop, a retention while down, ...)
 * as a production user performs it, driven against a real broker with real job processes.
 *
 * <p>{@link #run} is called on the lab's thread, once per job, with a cell whose topics, group,
 * transactional ids and checkpoints are its own; it may block for as long as the operation takes
 * (bounded by the cell's timeouts). It returns what it measured by counting the committed output.
 * It throws {@link LabFailure} when a step could not be carried out (a job that did not halt, an
 * option the job does not support yet); the matrix reports that cell as failed and goes on.
 */
interface Operation {
  /** A stable name, e.g. {@code rescale-1-2}, for the table, the JSON and {@code --cells}. */
  String key();

  /** What the operation must end in when Weir keeps its promise. */
  Expectation expectation();

  OperationOutcome run(OperationCell cell) throws Exception;

  /**
   * Whether the operation can be carried out on {@code deployment}, as a user would (a savepoint of
   * a running job needs a cluster's control channel, which a job in a process of its own lacks).
   */
  default boolean runsOn(Deployment deployment) {
    return true;
  }

  /** What a cell must show to pass. */
  enum Expectation {
    /** Every input record once in the committed output (per-key counts 1..n for state). */
    EXACTLY_ONCE,
    /**
     * The job fails with its documented one-line message and a non-zero exit, and nothing is
     * committed past the record or offset it failed at.
     */
    LOUD_FAILURE
  }
}
