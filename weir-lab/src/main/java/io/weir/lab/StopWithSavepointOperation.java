package io.weir.lab;

import java.util.List;

/**
 * Stop with a savepoint, then resume from it: on a cluster, {@code weir stop --savepoint DIR ID}
 * while input flows (sources stop, the savepoint completes, every sink commits, the job ends), then
 * {@code weir run -s SAVEPOINT}. Every input record must be in the output once: nothing may be left
 * pending in the savepoint, nor committed twice.
 */
final class StopWithSavepointOperation implements Operation {
  @Override
  public String key() {
    return "stop-with-savepoint";
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
        (jobId, directory) ->
            List.of(OperationOptions.STOP_COMMAND, "--savepoint", directory.toString(), jobId),
        true);
  }
}
