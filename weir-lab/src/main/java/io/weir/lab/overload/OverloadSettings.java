package io.weir.lab.overload;

import java.time.Duration;

/**
 * How an overload soak runs.
 *
 * @param total how long the input runs
 * @param recordDelayMicros what the job's map waits for each record: its capacity
 * @param unaligned whether the job takes unaligned checkpoints
 * @param kill whether to kill the job process with SIGKILL during the first overload phase
 * @param timeout how long each wait (a first checkpoint, the output settling) may take
 */
public record OverloadSettings(
    Duration total, long recordDelayMicros, boolean unaligned, boolean kill, Duration timeout) {

  public OverloadPlan plan() {
    return new OverloadPlan(recordDelayMicros, total);
  }
}
