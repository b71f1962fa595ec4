package io.weir.api.datastream;

import io.weir.api.annotation.Public;
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
 * @param deadLetterRecords records its sources sent to a dead-letter topic in its last attempt
 *     (each is in that topic once its transaction committed, as the rest of the output)
 * @param end how the job ended: its input ran out, or it stopped (or was cancelled) with a
 *     savepoint, leaving nothing pending
 */
@Public
public record JobResult(
    String jobName,
    Duration duration,
    Map<String, OperatorCounts> operators,
    long completedCheckpoints,
    int restarts,
    Duration meanCheckpointDuration,
    List<String> acceptedDataLoss,
    long deadLetterRecords,
    End end) {

  public JobResult {
    acceptedDataLoss = List.copyOf(acceptedDataLoss);
  }

  /** How a job that did not fail ended. */
  public enum End {
    /** Every source ran out of input (a bounded job). */
    FINISHED,
    /** Stopped with a savepoint: the savepoint completed and every sink committed. */
    STOPPED_WITH_SAVEPOINT,
    /** Cancelled with a savepoint: as a stop, but the job's final state is CANCELED. */
    CANCELED_WITH_SAVEPOINT
  }

  /** Records that went into and came out of one operator. */
  public record OperatorCounts(long recordsIn, long recordsOut) {}
}
