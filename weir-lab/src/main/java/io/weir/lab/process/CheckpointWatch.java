package io.weir.lab.process;

import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Watches a lab job's checkpoint directory for the checkpoints it completes. Polled: a job process
 * tells the lab nothing.
 */
public final class CheckpointWatch {
  private static final Duration POLL = Duration.ofMillis(50);

  private CheckpointWatch() {}

  /** The newest completed checkpoint under {@code checkpoints}, if the job completed one yet. */
  static Optional<CompletedCheckpoint> latest(Path checkpoints) {
    if (!Files.isDirectory(checkpoints)) {
      return Optional.empty();
    }
    try {
      return Optional.of(LabJob.latestCheckpoint(checkpoints));
    } catch (RuntimeException e) {
      return Optional.empty(); // no job directory or no completed checkpoint yet
    }
  }

  /** The newest completed checkpoint's id under {@code checkpoints}, -1 when there is none. */
  public static long latestId(Path checkpoints) {
    return latest(checkpoints).map(CompletedCheckpoint::checkpointId).orElse(-1L);
  }

  /**
   * Waits until the job completed a checkpoint newer than {@code afterId} (-1: any); fails when the
   * job ({@code alive}, logging to {@code log}) ended first or {@code timeout} passed.
   */
  public static CompletedCheckpoint awaitAfter(
      Path checkpoints, long afterId, BooleanSupplier alive, Path log, Duration timeout)
      throws Exception {
    return Polling.until(
        timeout,
        POLL,
        () -> {
          Optional<CompletedCheckpoint> latest = newerThan(checkpoints, afterId);
          if (latest.isPresent() || alive.getAsBoolean()) {
            return latest;
          }
          // It may have completed one between the look and its end (a halt right after it).
          return Optional.of(
              newerThan(checkpoints, afterId)
                  .orElseThrow(
                      () ->
                          JobLog.endedEarly(
                              "the job ended before checkpoint " + Math.max(1, afterId + 1), log)));
        },
        () ->
            new LabFailure(
                "the job completed no checkpoint within "
                    + timeout.toSeconds()
                    + " s; see "
                    + log));
  }

  private static Optional<CompletedCheckpoint> newerThan(Path checkpoints, long afterId) {
    return latest(checkpoints).filter(checkpoint -> checkpoint.checkpointId() > afterId);
  }
}
