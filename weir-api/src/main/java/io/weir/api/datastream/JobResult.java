package io.weir.api.datastream;

import java.time.Duration;
import java.util.Map;

/**
 * What a finished job did.
 *
 * @param operators per operator display name: records in and out, summed over subtasks
 * @param meanCheckpointDuration from trigger to completion, over the completed checkpoints (zero
 *     when none completed)
 */
public record JobResult(
    String jobName,
    Duration duration,
    Map<String, OperatorCounts> operators,
    long completedCheckpoints,
    int restarts,
    Duration meanCheckpointDuration) {

  /** Records that went into and came out of one operator. */
  public record OperatorCounts(long recordsIn, long recordsOut) {}
}
