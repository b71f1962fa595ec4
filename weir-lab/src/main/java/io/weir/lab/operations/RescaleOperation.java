package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.List;

/**
 * Rescale with a pending transaction: the job runs at parallelism {@code from} while input flows
 * (from before its start, so every transaction holds records), and halts after a checkpoint
 * completed but before its sinks were told ({@code coordinator.notify.before=halt@N}), so every
 * sink subtask holds a pre-committed transaction that only the restored job can commit. It is
 * resumed from that checkpoint at parallelism {@code to}, more input follows, and the committed
 * output is counted once it settles. {@code from == to} is the control: the restore every chaos run
 * measured exactly-once.
 */
final class RescaleOperation implements Operation {
  private final int from;
  private final int to;

  RescaleOperation(int from, int to) {
    this.from = from;
    this.to = to;
  }

  @Override
  public String key() {
    return "rescale-" + from + "-" + to;
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    String failpoint =
        FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=halt@" + cell.settings().crashHit();
    long fed;
    try (ContinuousFeed feed = cell.feed(0);
        RunningJob first =
            cell.start(cell.runArguments(from, List.of("--fresh"), List.of()), failpoint)) {
      cell.awaitHalt(first, failpoint);
      fed = feed.stop();
    }
    CompletedCheckpoint latest = cell.latestCheckpoint();
    cell.progress(
        "halted with checkpoint "
            + latest.checkpointId()
            + " complete but not notified, "
            + fed
            + " records in; resuming at parallelism "
            + to);
    List<String> resume = List.of("-s", latest.location().toString());
    try (RunningJob second = cell.start(cell.runArguments(to, resume, List.of()), null)) {
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(second);
    }
    return OperationOutcome.counted(cell.verdict());
  }
}
