package io.weir.lab;

import java.util.List;

/**
 * Cancel with a savepoint, then a plain resubmission: on a cluster, {@code weir cancel --savepoint
 * DIR ID} while input flows, then {@code weir run} without {@code -s}, which must resume from the
 * newest of the job's checkpoints and savepoints — the savepoint. Every input record must be in the
 * output once: the cancel must not race the sinks' commits of the savepoint, and the resubmission
 * must not go back to an older checkpoint.
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

  /**
   * A job in a process of its own has no control channel a user could stop it through (programs use
   * {@code JobClient.stopWithSavepoint}); the command needs a cluster.
   */
  @Override
  public boolean runsOn(Deployment deployment) {
    return deployment == Deployment.CLUSTER;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    return SavepointRestart.run(
        cell,
        (jobId, directory) -> List.of("cancel", "--savepoint", directory.toString(), jobId),
        false);
  }
}
