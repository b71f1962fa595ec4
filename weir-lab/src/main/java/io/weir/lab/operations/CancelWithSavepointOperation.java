package io.weir.lab.operations;

import java.util.List;

/**
 * Cancel with a savepoint, then a plain resubmission: on a cluster (or a local run, {@code --web}),
 * {@code weir cancel --savepoint DIR ID} while input flows, then {@code weir run} without {@code
 * -s}, which must resume from the newest of the job's checkpoints and savepoints — the savepoint.
 * Every input record must be in the output once: the cancel must not race the sinks' commits of the
 * savepoint, and the resubmission must not go back to an older checkpoint.
 */
final class CancelWithSavepointOperation implements Operation {
  @Override
  public String key() {
    return "cancel-with-savepoint";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    if (cell.deployment() == Deployment.LOCAL) {
      return LocalSavepointRestart.run(cell, "cancel", false);
    }
    return SavepointRestart.run(
        cell,
        (jobId, directory) -> List.of("cancel", "--savepoint", directory.toString(), jobId),
        false);
  }
}
