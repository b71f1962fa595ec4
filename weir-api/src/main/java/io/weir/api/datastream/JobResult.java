package io.weir.api.datastream;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a finished job did.
 *
 * @param operators per operator display name: records in and out, summed over subtasks
 * @param meanCheckpointDuration from trigger to completion, over the completed checkpoints (zero
 *     when none completed)
 * @param acceptedDataLoss one line per transaction that recovery proved aborted and that the job
 *     went on without because it accepts data loss ({@code --accept-data-loss}); empty when nothing
 *     was lost. A job with such lines lost records: the command line ends it with a non-zero exit.
 */
public record JobResult(
    String jobName,
    Duration duration,
    Map<String, OperatorCounts> operators,
    long completedCheckpoints,
    int restarts,
    Duration meanCheckpointDuration,
    List<String> acceptedDataLoss) {

  public JobResult {
    acceptedDataLoss = List.copyOf(acceptedDataLoss);
  }

  /** Records that went into and came out of one operator. */
  public record OperatorCounts(long recordsIn, long recordsOut) {}
}
