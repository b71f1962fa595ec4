package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.List;

/**
 * {@code --fresh} after a crash that left transactions pending: the job runs at parallelism 2 (two
 * tasks) while input flows, and halts right after a source committed a completed checkpoint's
 * offsets to the group, while the sinks wait before their commits ({@code
 * sink.commit.before=pause}, {@code source.offsets-commit.after=halt@N}): the sinks hold
 * pre-committed transactions whose records the group's offsets already count. The operator then
 * starts the job with {@code --fresh} on the same checkpoint directory. The start must reconcile:
 * commit the pending transactions the newest checkpoint records and start each partition after what
 * they wrote, so that every input record is once in the output. Aborting them as lingering, as the
 * seed's system did, loses those records. Only the seed job runs it: a fresh start drops keyed
 * state by design, which the running count would rightly count as lost.
 */
final class FreshAfterCrashOperation implements Operation {
  private static final int PARALLELISM = 2;

  @Override
  public String key() {
    return "fresh-after-crash";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    List<String> fresh = cell.runArguments(PARALLELISM, List.of("--fresh"), List.of());
    long fed = haltWithTransactionsPending(cell, fresh);
    CompletedCheckpoint latest = cell.latestCheckpoint();
    cell.progress(
        "halted with checkpoint "
            + latest.checkpointId()
            + " complete, its offsets in the group and its transactions pending, "
            + fed
            + " records in; starting again with --fresh");
    try (RunningJob second = cell.start(fresh, null)) {
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(second);
    }
    return OperationOutcome.counted(cell.verdict());
  }

  /**
   * Runs the job with {@code runArguments} under a steady feed until it halts right after its
   * source committed the group's offsets, its sinks' commits held back meanwhile, so that
   * pre-committed transactions the group already counts are pending at the halt; returns the
   * records fed.
   */
  static long haltWithTransactionsPending(OperationCell cell, List<String> runArguments)
      throws Exception {
    String failpoint =
        FailpointNames.SOURCE_OFFSETS_COMMIT_AFTER + "=halt@" + cell.settings().crashHit();
    String sinksWait =
        FailpointNames.SINK_COMMIT_BEFORE + "=pause(" + LabJob.ORDER_PAUSE_MILLIS + ")";
    try (ContinuousFeed feed = cell.feed(0);
        RunningJob first = cell.start(runArguments, sinksWait + "," + failpoint)) {
      cell.awaitHalt(first, failpoint);
      return feed.stop();
    }
  }
}
