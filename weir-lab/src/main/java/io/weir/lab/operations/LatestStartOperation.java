package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.List;

/**
 * A fresh start at {@code latest} with a crash before the second checkpoint: the job starts on an
 * empty topic at the latest offsets, input flows from the moment its first checkpoint completed,
 * the job manager halts before checkpoint 2's metadata, and the job is resumed from checkpoint 1
 * while input keeps flowing. Every record fed after checkpoint 1 must be in the output once: that
 * checkpoint must hold the positions the start resolved, not resolve {@code latest} again.
 */
final class LatestStartOperation implements Operation {
  @Override
  public String key() {
    return "start-latest-crash";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    List<String> latest = List.of(OperationOptions.STARTING_OFFSETS, "latest");
    String failpoint = FailpointNames.COORDINATOR_METADATA_BEFORE + "=halt@2";
    try (RunningJob first =
        cell.start(cell.runArguments(0, List.of("--fresh"), latest), failpoint)) {
      cell.awaitCheckpointAfter(first, -1);
      try (ContinuousFeed feed = cell.feed(0)) {
        cell.awaitHalt(first, failpoint);
        CompletedCheckpoint restored = cell.latestCheckpoint();
        cell.progress(
            "halted before checkpoint 2's metadata; resuming from checkpoint "
                + restored.checkpointId()
                + " while input flows");
        List<String> resume = List.of("-s", restored.location().toString());
        try (RunningJob second = cell.start(cell.runArguments(0, resume, latest), null)) {
          cell.awaitCheckpointAfter(second, restored.checkpointId());
          long fed = feed.stop();
          cell.load(fed, fed + cell.settings().recordsAfterRestart());
          cell.awaitSettled(second);
        }
      }
    }
    return OperationOutcome.counted(cell.verdict());
  }
}
