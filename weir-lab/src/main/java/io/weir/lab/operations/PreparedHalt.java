package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The first step of the operations that restore a job halted with transactions prepared: the job
 * runs under a steady feed until a failpoint halts it, and the PostgreSQL job's halt must leave at
 * least one transaction in {@code pg_prepared_xacts}, or the cell proves nothing.
 *
 * <p>The sink prepares nothing for a checkpoint whose transaction holds no record, and on a loaded
 * machine the job can complete the checkpoint of its halt before its source delivered any record to
 * the sinks. So while a halt leaves nothing prepared, the job is started again from the checkpoint
 * it left, at the same parallelism and with the halt twice as many checkpoints later, until the
 * cell's timeout; only then does the cell fail, saying what it waited for. The feed runs on across
 * those starts. A job that writes to Kafka only halts once.
 */
final class PreparedHalt {
  /** Each try is a whole run of the job up to its halt: nothing to wait for between two. */
  private static final Duration BETWEEN_TRIES = Duration.ZERO;

  /**
   * What the job left at the halt.
   *
   * @param fed the input records fed up to the halt
   * @param latest the newest completed checkpoint at the halt
   * @param prepared the ids of the transactions prepared at the halt (none for a Kafka job)
   */
  record Halted(long fed, CompletedCheckpoint latest, Set<String> prepared) {}

  private final OperationCell cell;
  private final int parallelism;
  private final String failpointName;
  private final List<String> jobOptions;
  private List<String> startOptions = List.of("--fresh");
  private int hit;
  private int tries;

  private PreparedHalt(
      OperationCell cell, int parallelism, String failpointName, List<String> jobOptions) {
    this.cell = cell;
    this.parallelism = parallelism;
    this.failpointName = failpointName;
    this.jobOptions = jobOptions;
    this.hit = cell.settings().crashHit();
  }

  /**
   * Runs the job of {@code cell} from scratch at {@code parallelism} with {@code jobOptions} until
   * the failpoint {@code failpointName} halts it with transactions prepared (any halt for a Kafka
   * job); fails the cell when none was prepared at any halt within the cell's timeout.
   */
  static Halted run(
      OperationCell cell, int parallelism, String failpointName, List<String> jobOptions)
      throws Exception {
    PreparedHalt halt = new PreparedHalt(cell, parallelism, failpointName, jobOptions);
    try (ContinuousFeed feed = cell.feed(0)) {
      Set<String> prepared =
          Polling.until(
              cell.settings().timeout(), BETWEEN_TRIES, halt::haltOnce, halt::provedNothing);
      if (cell.writesToPostgres()) {
        cell.progress(prepared.size() + " transactions prepared at the halt: " + prepared);
      }
      return new Halted(feed.stop(), cell.latestCheckpoint(), prepared);
    }
  }

  /** One run of the job up to its halt: the prepared transactions, or empty to try again. */
  private Optional<Set<String>> haltOnce() throws Exception {
    tries++;
    String failpoint = failpointName + "=halt@" + hit;
    try (RunningJob job =
        cell.start(cell.runArguments(parallelism, startOptions, jobOptions), failpoint)) {
      cell.awaitHalt(job, failpoint);
    }
    Set<String> prepared = cell.preparedTransactions();
    if (!prepared.isEmpty() || !cell.writesToPostgres()) {
      return Optional.of(prepared);
    }
    CompletedCheckpoint latest = cell.latestCheckpoint();
    hit *= 2;
    startOptions = List.of("-s", latest.location().toString());
    cell.progress(
        "no transaction was prepared at the halt (the job had written nothing to its sinks"
            + " for it); starting again from checkpoint "
            + latest.checkpointId()
            + " with "
            + failpointName
            + "=halt@"
            + hit);
    return Optional.empty();
  }

  private LabFailure provedNothing() {
    return new LabFailure(
        "no transaction was prepared at the halt in "
            + tries
            + (tries == 1 ? " run" : " runs")
            + " of the job within "
            + cell.settings().timeout().toSeconds()
            + " s (each halted before its sinks held a record), so the cell proves nothing");
  }
}
