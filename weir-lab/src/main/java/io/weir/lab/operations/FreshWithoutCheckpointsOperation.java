package io.weir.lab.operations;

import io.weir.lab.OutputVerifier;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.storage.Directories;
import java.util.List;

/**
 * {@code --fresh} after a crash, with no checkpoint directory at hand to reconcile with: the job
 * halts as in {@link FreshAfterCrashOperation} (the sinks' pre-committed transactions pending, the
 * group's offsets already counting their records), then its checkpoint directory is removed (an
 * operator who cleaned up, a container whose disk was not kept) and it is started with {@code
 * --fresh} on the same, now empty, directory. Nothing records which transactions the crashed run
 * left pending nor where their records came from: aborting them loses records the group counts, and
 * committed output the group has not counted yet is read again. So the start must refuse before it
 * touches anything, in one line naming the sink, its open transactions and {@code
 * --accept-data-loss}, and nothing may be committed by it.
 */
final class FreshWithoutCheckpointsOperation implements Operation {
  private static final int PARALLELISM = 2;

  @Override
  public String key() {
    return "fresh-without-checkpoints";
  }

  @Override
  public Expectation expectation() {
    return Expectation.LOUD_FAILURE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    List<String> fresh = cell.runArguments(PARALLELISM, List.of("--fresh"), List.of());
    long fed = FreshAfterCrashOperation.haltWithTransactionsPending(cell, fresh);
    Directories.deleteRecursively(cell.checkpoints());
    cell.progress(
        "halted with transactions pending, "
            + fed
            + " records in; checkpoint directory removed; starting again with --fresh");
    OutputVerifier.Reading committedBefore = cell.committedOutput();
    try (RunningJob second = cell.start(fresh, null)) {
      OperationOutcome refusal =
          cell.awaitLoudFailure(second, openTransactionsLine(cell), committedBefore);
      if (refusal != null) {
        return refusal;
      }
    }
    return OperationOutcome.failed(
        "the job started without its checkpoints instead of refusing", cell.verdict());
  }

  /** The documented line: the sink's open transactions, what follows, and the way out. */
  private static OperationCell.LoudFailure openTransactionsLine(OperationCell cell) {
    String prefix = cell.topics().transactionalIdPrefix();
    return new OperationCell.LoudFailure() {
      @Override
      public boolean accepts(String line) {
        return line.contains("has transactions open from an earlier run")
            && line.contains(prefix + "-")
            && line.contains("losing records")
            && line.contains("--accept-data-loss");
      }

      @Override
      public String description() {
        return "a line naming the sink's open transactions "
            + prefix
            + "-*, the records that"
            + " would be lost, and --accept-data-loss";
      }
    };
  }
}
