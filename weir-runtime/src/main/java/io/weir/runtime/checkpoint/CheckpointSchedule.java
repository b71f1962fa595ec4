package io.weir.runtime.checkpoint;

import io.weir.api.datastream.JobConfig;
import java.util.OptionalLong;

/**
 * When the next periodic checkpoint of one attempt is due: an interval after the previous trigger
 * (the first one at the start the coordinator sets), at once when the first output began and no
 * checkpoint was triggered since, and never before the minimum pause after the last completion. It
 * only computes: the coordinator schedules the trigger and tells it what happened. Times are
 * milliseconds of the coordinator's clock. Not thread safe: called under the coordinator's lock.
 */
final class CheckpointSchedule {
  private final JobConfig config;
  private long firstPeriodicMillis;
  private OptionalLong lastTriggerMillis = OptionalLong.empty();
  private OptionalLong lastCompletionMillis = OptionalLong.empty();
  private OptionalLong outputStartedMillis = OptionalLong.empty();
  // Whether the first output still waits for a checkpoint triggered after it began.
  private boolean firstOutputUncheckpointed;

  /** The schedule of a job with {@code config}'s interval and minimum pause. */
  CheckpointSchedule(JobConfig config) {
    this.config = config;
  }

  /** Periodic checkpoints start: the first one is due no earlier than {@code firstMillis}. */
  void startAt(long firstMillis) {
    firstPeriodicMillis = firstMillis;
  }

  /**
   * A sink received the attempt's first record at {@code millis}: the next checkpoint is due at
   * once. True the first time; false, changing nothing, after that.
   */
  boolean outputStarted(long millis) {
    if (outputStartedMillis.isPresent()) {
      return false;
    }
    outputStartedMillis = OptionalLong.of(millis);
    firstOutputUncheckpointed = true;
    return true;
  }

  /**
   * A trigger began at {@code millis}: the next one is due an interval after it, even when this one
   * could not claim its checkpoint id.
   */
  void triggering(long millis) {
    lastTriggerMillis = OptionalLong.of(millis);
  }

  /** The checkpoint triggered last claimed its id: it carries the first output, if that began. */
  void triggered() {
    firstOutputUncheckpointed = false;
  }

  /** A checkpoint completed at {@code millis}. */
  void completed(long millis) {
    lastCompletionMillis = OptionalLong.of(millis);
  }

  /** True until a checkpoint of this attempt completed. */
  boolean noneCompleted() {
    return lastCompletionMillis.isEmpty();
  }

  /** When the next periodic checkpoint is due; only once periodic checkpoints started. */
  long dueMillis() {
    long due = firstPeriodicMillis;
    if (lastTriggerMillis.isPresent()) {
      due = Math.max(due, lastTriggerMillis.getAsLong() + config.checkpointInterval().toMillis());
    }
    if (firstOutputUncheckpointed) {
      // No checkpoint was triggered since the first output: the next one carries it, now.
      due = Math.min(due, outputStartedMillis.getAsLong());
    }
    if (lastCompletionMillis.isPresent()) {
      due =
          Math.max(
              due,
              lastCompletionMillis.getAsLong() + config.minPauseBetweenCheckpoints().toMillis());
    }
    return due;
  }
}
