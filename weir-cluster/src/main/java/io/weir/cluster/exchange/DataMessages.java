package io.weir.cluster.exchange;

import io.weir.cluster.rpc.AttemptId;
import java.io.Serializable;

/** What task managers send each other on data connections. */
public final class DataMessages {
  private DataMessages() {}

  /**
   * One encoded batch of {@code size} records and events of input channel {@code channel} for
   * subtask {@code subtask} of task {@code vertexId}; the receiver counts them in flight from its
   * arrival, before it decodes them. A batch that {@code endsWithBarrier} travels without a credit
   * and returns none, so that a checkpoint barrier never waits for the receiver to make room; there
   * is at most one such batch per channel and checkpoint.
   */
  public record DataFrame(
      AttemptId attempt,
      String vertexId,
      int subtask,
      int channel,
      int size,
      boolean endsWithBarrier,
      byte[] payload)
      implements Serializable {}

  /**
   * The receiver put one batch of {@code channel} into its gate: the sender may send one more, of
   * at most {@code recordsPerBatch} records — the receiving gate's credit now, which adaptive
   * in-flight data sets from the receiving task's throughput. Sent back on the connection the batch
   * came on.
   */
  public record Credit(
      AttemptId attempt, String vertexId, int subtask, int channel, int recordsPerBatch)
      implements Serializable {}
}
