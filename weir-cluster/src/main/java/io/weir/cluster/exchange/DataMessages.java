package io.weir.cluster.exchange;

import io.weir.cluster.rpc.AttemptId;
import java.io.Serializable;

/** What task managers send each other on data connections. */
public final class DataMessages {
  private DataMessages() {}

  /**
   * One encoded batch of input channel {@code channel} for subtask {@code subtask} of task {@code
   * vertexId}. A batch that {@code endsWithBarrier} travels without a credit and returns none, so
   * that a checkpoint barrier never waits for the receiver to make room; there is at most one such
   * batch per channel and checkpoint.
   */
  public record DataFrame(
      AttemptId attempt,
      String vertexId,
      int subtask,
      int channel,
      boolean endsWithBarrier,
      byte[] payload)
      implements Serializable {}

  /**
   * The receiver put one batch of {@code channel} into its gate: the sender may send one more. Sent
   * back on the connection the batch came on.
   */
  public record Credit(AttemptId attempt, String vertexId, int subtask, int channel)
      implements Serializable {}
}
