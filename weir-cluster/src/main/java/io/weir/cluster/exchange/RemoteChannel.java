package io.weir.cluster.exchange;

import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Semaphore;

/**
 * The sending end of one channel to a subtask on another task manager. Backpressure works as in one
 * JVM: at most {@code credits} batches are in flight (sent but not yet in the receiver's gate);
 * {@link #put} blocks the sending task until the receiver returns a credit. A batch that ends with
 * a checkpoint barrier goes without a credit: with unaligned checkpoints its barrier overtakes the
 * batches in flight ahead of it, and in any mode it is one batch per channel and checkpoint.
 */
public final class RemoteChannel implements BatchReceiver {
  private final AttemptId attempt;
  private final String vertexId;
  private final int subtask;
  private final RpcConnection connection;
  private final Semaphore credits;
  private final RecordEncoding encoding;

  RemoteChannel(
      AttemptId attempt,
      String vertexId,
      int subtask,
      RpcConnection connection,
      int credits,
      RecordEncoding encoding) {
    this.attempt = attempt;
    this.vertexId = vertexId;
    this.subtask = subtask;
    this.connection = connection;
    this.credits = new Semaphore(credits);
    this.encoding = encoding;
  }

  @Override
  public void put(Batch batch) throws InterruptedException {
    byte[] payload;
    try {
      payload = BatchCodec.encode(batch, encoding);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot serialize a batch for " + vertexId + " subtask " + subtask + ": " + e, e);
    }
    boolean endsWithBarrier =
        batch.size() > 0 && batch.value(batch.size() - 1) instanceof CheckpointBarrier;
    if (!endsWithBarrier) {
      credits.acquire();
    }
    connection.send(
        new DataMessages.DataFrame(
            attempt, vertexId, subtask, batch.channel(), endsWithBarrier, payload));
  }

  void onCredit() {
    credits.release();
  }
}
