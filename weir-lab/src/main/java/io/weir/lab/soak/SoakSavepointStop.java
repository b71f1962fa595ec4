package io.weir.lab.soak;

import io.weir.lab.LabProgress;
import io.weir.lab.operations.OperationOptions;
import io.weir.lab.operations.SavepointRestart;
import io.weir.lab.process.CheckpointWatch;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One round of the soak that ends the job the way an operator does, not by a crash: the job is
 * submitted to a cluster of the round's own (a plain submission, so it resumes from the newest of
 * the job's checkpoints and savepoints), runs until it completed a checkpoint of its own and a
 * while longer, and is stopped with {@code weir stop --savepoint DIR ID}. The stop must end the job
 * with exit code 0 and nothing pending; the next round, on whatever deployment, resumes from that
 * savepoint.
 */
final class SoakSavepointStop {
  private static final int SLOTS = 4;

  private final Duration timeout;
  private final LabProgress progress;

  SoakSavepointStop(Duration timeout, LabProgress progress) {
    this.timeout = timeout;
    this.progress = progress;
  }

  /**
   * Runs the round in {@code directory}; {@code runArguments} are those of {@code weir run}, with
   * the soak's checkpoint directory {@code checkpoints}.
   */
  void run(
      List<String> runArguments, Path checkpoints, Path directory, long lifetimeMillis, int round)
      throws Exception {
    long before = CheckpointWatch.latestId(checkpoints);
    Path savepoints = directory.resolve("savepoints").toAbsolutePath();
    try (LabCluster cluster = LabCluster.start(directory, SLOTS, timeout);
        JobProcess client = cluster.submit(runArguments, directory.resolve("client.log"))) {
      CheckpointWatch.awaitAfter(checkpoints, before, client::isAlive, client.log(), timeout);
      Thread.sleep(lifetimeMillis); // a random stretch of running, the soak's choice
      String jobId = SavepointRestart.jobId(client.log());
      String said =
          cluster.command(
              List.of(OperationOptions.STOP_COMMAND, "--savepoint", savepoints.toString(), jobId));
      Path savepoint = SavepointRestart.savepointPath(said, savepoints);
      int exit = client.waitFor(timeout.toMillis());
      if (exit != 0) {
        throw JobLog.endedEarly(
            "the job stopped with a savepoint in round "
                + round
                + " but its client "
                + (exit == -1 ? "did not end" : "exited with " + exit),
            client.log());
      }
      progress.line("round " + round + ": stopped with savepoint " + savepoint + " on a cluster");
    }
  }
}
