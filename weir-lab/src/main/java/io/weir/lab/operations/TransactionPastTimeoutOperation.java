package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A transaction held past a short transaction timeout by expired checkpoints: the job runs with a
 * Kafka transaction timeout of {@link #TRANSACTION_TIMEOUT} while input flows, and the
 * acknowledgements of its third checkpoint each wait as long as that timeout ({@code
 * task.ack.before=pause} on their hits), which holds up the snapshot threads: checkpoint 3 expires,
 * and so does the next one, whose acknowledgements queue behind. Each expired checkpoint leaves its
 * pre-committed transactions pending, to be committed with the next completed one, so they grow
 * older than the broker allows; were they committed after the broker aborted them, their records
 * would be lost. The sinks must fail the job first, when a pending transaction reaches {@code
 * AGE_LIMIT_RATIO} of the timeout, so that it restores its last completed checkpoint and reads
 * those records again. Then checkpoints complete again and every input record must be in the output
 * once; the cell fails unless the job's log shows that the age limit failed an attempt.
 */
final class TransactionPastTimeoutOperation implements Operation {
  /** Short, so that the cell outlasts it in well under a minute. */
  static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(20);

  /** What the sinks' age limit says when it fails an attempt. */
  static final String AGE_LIMIT_FAILURE = "% of the transaction timeout (";

  private static final int PARALLELISM = 2;
  // Two tasks at parallelism 2 hit task.ack.before four times a checkpoint: checkpoints 1 and 2
  // complete, the four acknowledgements of checkpoint 3 wait.
  private static final int FIRST_HELD_ACK = 9;
  private static final int LAST_HELD_ACK = 12;

  @Override
  public String key() {
    return "transaction-past-timeout";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    List<String> shortTimeout =
        List.of("--transaction-timeout", Long.toString(TRANSACTION_TIMEOUT.toMillis()));
    String heldAcks =
        FailpointNames.TASK_ACK_BEFORE
            + "=pause("
            + TRANSACTION_TIMEOUT.toMillis()
            + ")@"
            + FIRST_HELD_ACK
            + "-"
            + LAST_HELD_ACK;
    try (ContinuousFeed feed = cell.feed(0);
        RunningJob job =
            cell.start(
                cell.runArguments(PARALLELISM, List.of("--fresh"), shortTimeout), heldAcks)) {
      String failure = awaitAgeLimitFailure(cell, job);
      cell.progress("the age limit failed an attempt: " + failure);
      CompletedCheckpoint before = cell.latestCheckpoint();
      CompletedCheckpoint after = cell.awaitCheckpointAfter(job, before.checkpointId());
      long fed = feed.stop();
      cell.progress(
          "checkpoint "
              + after.checkpointId()
              + " completed after the held acknowledgements, "
              + fed
              + " records in; waiting for the output to settle");
      cell.awaitSettled(job);
    }
    return OperationOutcome.counted(cell.verdict());
  }

  /** The log line in which the sinks' age limit failed an attempt of the job. */
  private static String awaitAgeLimitFailure(OperationCell cell, RunningJob job) throws Exception {
    return Polling.until(
        cell.settings().timeout(),
        Duration.ofMillis(200),
        () -> {
          Optional<String> line = ageLimitFailure(job);
          if (line.isEmpty() && !job.isAlive()) {
            throw JobLog.endedEarly(
                "the job ended before the age limit failed an attempt", job.log());
          }
          return line;
        },
        () ->
            new LabFailure(
                "no pending transaction reached the age limit within "
                    + cell.settings().timeout().toSeconds()
                    + " s; see "
                    + job.log()));
  }

  /**
   * The age limit's line in any of the job's logs: a local run logs it itself, a cluster's job
   * manager logs each failed attempt.
   */
  private static Optional<String> ageLimitFailure(RunningJob job) throws IOException {
    for (Path log : job.logs()) {
      if (Files.exists(log)) {
        Optional<String> line =
            Files.readAllLines(log).stream()
                .filter(text -> text.contains(AGE_LIMIT_FAILURE))
                .findFirst();
        if (line.isPresent()) {
          return line;
        }
      }
    }
    return Optional.empty();
  }
}
