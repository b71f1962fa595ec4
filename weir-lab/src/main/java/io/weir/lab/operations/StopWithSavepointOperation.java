package io.weir.lab.operations;

import java.util.List;

/**
 * Stop with a savepoint, then resume from it: on a cluster (or a local run, {@code --web}), {@code
 * weir stop --savepoint DIR ID} while input flows (sources stop, the savepoint completes, every
 * sink commits, the job ends), then {@code weir run -s SAVEPOINT}. Every input record must be in
 * the output once: nothing may be left pending in the savepoint, nor committed twice.
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

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    if (cell.deployment() == Deployment.LOCAL) {
      return LocalSavepointRestart.run(cell, OperationOptions.STOP_COMMAND, true);
    }
    return SavepointRestart.run(
        cell,
        (jobId, directory) ->
            List.of(OperationOptions.STOP_COMMAND, "--savepoint", directory.toString(), jobId),
        true);
  }
}
