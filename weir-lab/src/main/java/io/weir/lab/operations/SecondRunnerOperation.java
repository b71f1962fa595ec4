package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A second runner of a running job: the job runs while input flows and completes a checkpoint, then
 * the same {@code weir run} is started again on the same checkpoint directory (a second shell, a
 * service manager restarting a job that still runs). The second must fail at once with the one line
 * naming the running process and the directory, and the first must go on checkpointing. Then the
 * first is killed with SIGKILL and the job is started again as usual: every input record once.
 */
final class SecondRunnerOperation implements Operation {
  /** The line a refused runner prints; the pid is the first runner's job process (or manager). */
  static final Pattern REFUSAL =
      Pattern.compile(
          "^weir: job '[^']+' is already running \\(pid (\\d+) on host \\S+ since \\S+\\) with"
              + " checkpoint directory \\S+; stop it first$");

  @Override
  public String key() {
    return "second-runner";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    List<String> arguments = cell.runArguments(2, List.of(), List.of());
    long fed;
    try (ContinuousFeed feed = cell.feed(0);
        RunningJob first = cell.start(arguments, null)) {
      CompletedCheckpoint before = cell.awaitCheckpointAfter(first, -1);
      long epoch = leaseEpoch(cell);
      Optional<String> refusal = refusedSecondRunner(cell, arguments, first);
      if (refusal.isEmpty() && leaseEpoch(cell) != epoch) {
        refusal = Optional.of("the refused runner took the lease: its epoch went from " + epoch);
      }
      if (refusal.isPresent()) {
        first.close();
        feed.stop();
        return OperationOutcome.failed(refusal.get(), cell.verdict());
      }
      CompletedCheckpoint after = cell.awaitCheckpointAfter(first, before.checkpointId());
      cell.progress(
          "the first runner went on to checkpoint "
              + after.checkpointId()
              + "; killing it (SIGKILL)");
      first.close();
      fed = feed.stop();
    }
    try (RunningJob restarted = cell.start(arguments, null)) {
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(restarted);
    }
    return OperationOutcome.counted(cell.verdict());
  }

  /** The epoch of the lease on the cell's job directory: grows with each runner that took it. */
  private static long leaseEpoch(OperationCell cell) throws IOException {
    long epoch = 0;
    try (Stream<Path> jobDirectories = Files.list(cell.checkpoints())) {
      for (Path jobDirectory : jobDirectories.filter(Files::isDirectory).toList()) {
        epoch = Math.max(epoch, CheckpointDirectoryLease.lastEpoch(jobDirectory));
      }
    }
    return epoch;
  }

  /**
   * Starts the same run again while {@code first} runs; empty when it was refused as it must be,
   * else what went wrong.
   */
  private static Optional<String> refusedSecondRunner(
      OperationCell cell, List<String> arguments, RunningJob first) throws Exception {
    try (RunningJob second = cell.start(arguments, null)) {
      int exit = second.waitFor(cell.settings().timeout().toMillis());
      if (exit == -1) {
        return Optional.of("the second runner was not refused: it still ran after the timeout");
      }
      Optional<String> line = JobLog.errorLine(second.log());
      if (exit == 0 || line.isEmpty() || !REFUSAL.matcher(line.get()).matches()) {
        return Optional.of(
            "the second runner exited with "
                + exit
                + line.map(text -> ": " + text).orElse(" without an error line")
                + "; see "
                + second.log());
      }
      if (!first.isAlive()) {
        return Optional.of(
            "the first runner ended when the second was refused; see " + first.log());
      }
      cell.progress("the second runner was refused: " + line.get());
      return Optional.empty();
    }
  }
}
