package io.weir.lab.operations;

import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.List;
import java.util.Set;

/**
 * Rescale with a pending transaction: the job runs at parallelism {@code from} while input flows
 * (from before its start, so every transaction holds records), and halts after a checkpoint
 * completed but before its sinks were told ({@code coordinator.notify.before=halt@N}), so every
 * sink subtask holds a pre-committed transaction that only the restored job can commit. It is
 * resumed from that checkpoint at parallelism {@code to}, more input follows, and the committed
 * output is counted once it settles. {@code from == to} is the control: the restore every chaos run
 * measured exactly-once.
 *
 * <p>The {@linkplain Halt#BEFORE_COMPLETION incomplete} variant ({@code rescale-F-T-incomplete})
 * halts instead after every subtask acknowledged a checkpoint and before the job manager wrote its
 * metadata ({@code coordinator.metadata.before=halt@N}): every sink subtask pre-committed a
 * transaction that no completed checkpoint records, which the restore from the checkpoint before
 * must abort (its records are read again), for every former subtask.
 *
 * <p>With the PostgreSQL job the sink subtasks hold prepared transactions at the halt (the job is
 * run to its halt again until they do: {@link PreparedHalt}); those of the subtasks a scale-down
 * removes are settled (committed, or rolled back when no checkpoint records them) by the restored
 * job too, so none of the transactions prepared at the halt may be left in {@code
 * pg_prepared_xacts} once the output settled (a prepared transaction left holds its row locks and
 * blocks VACUUM for ever).
 */
final class RescaleOperation implements Operation {
  /** Where the job halts before it is rescaled. */
  enum Halt {
    /** Checkpoint N complete, its sinks not told: their transactions pending in N. */
    AFTER_COMPLETION(FailpointNames.COORDINATOR_NOTIFY_BEFORE, ""),
    /** Checkpoint N acknowledged, its metadata not written: its transactions recorded nowhere. */
    BEFORE_COMPLETION(FailpointNames.COORDINATOR_METADATA_BEFORE, "-incomplete");

    private final String failpoint;
    private final String keySuffix;

    Halt(String failpoint, String keySuffix) {
      this.failpoint = failpoint;
      this.keySuffix = keySuffix;
    }
  }

  private final int from;
  private final int to;
  private final Halt halt;

  RescaleOperation(int from, int to) {
    this(from, to, Halt.AFTER_COMPLETION);
  }

  RescaleOperation(int from, int to, Halt halt) {
    this.from = from;
    this.to = to;
    this.halt = halt;
  }

  @Override
  public String key() {
    return "rescale-" + from + "-" + to + halt.keySuffix;
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    PreparedHalt.Halted halted = PreparedHalt.run(cell, from, halt.failpoint, List.of());
    CompletedCheckpoint latest = halted.latest();
    long fed = halted.fed();
    cell.progress(
        (halt == Halt.AFTER_COMPLETION
                ? "halted with checkpoint " + latest.checkpointId() + " complete but not notified, "
                : "halted before checkpoint "
                    + (latest.checkpointId() + 1)
                    + " completed, all of it acknowledged, ")
            + fed
            + " records in; resuming at parallelism "
            + to);
    List<String> resume = List.of("-s", latest.location().toString());
    Set<String> left;
    try (RunningJob second = cell.start(cell.runArguments(to, resume, List.of()), null)) {
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(second);
      left = cell.stillPrepared(halted.prepared());
    }
    return OperationCell.countedUnlessLeft(left, cell.verdict());
  }
}
