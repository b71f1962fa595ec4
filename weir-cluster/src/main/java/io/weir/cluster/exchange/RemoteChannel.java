package io.weir.cluster.exchange;

import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The sending end of one channel to a subtask on another task manager. Backpressure works as in one
 * JVM: at most {@code credits} batches are in flight (sent but not yet in the receiver's gate);
 * {@link #put} blocks the sending task until the receiver returns a credit. A batch that ends with
 * a checkpoint barrier goes without a credit: with unaligned checkpoints its barrier overtakes the
 * batches in flight ahead of it, and in any mode it is one batch per channel and checkpoint.
 *
 * <p>A wait for a credit in {@link #putUnlessWoken} ends when the sending task is woken for a
 * checkpoint ({@link #wakeSender}), as a wait for room at a gate in this process does: the sender
 * holds the batch and its barrier overtakes it. The sending task wakes its channels only where
 * barriers overtake (unaligned exactly-once checkpoints), the receiving gate's mode.
 *
 * <p>Each credit returned carries the receiving gate's credit in records ({@link
 * #recordsPerBatch}), which the sender reads as it starts a batch: with adaptive in-flight data the
 * batches in flight across the network, with those the gate holds, take about the target time of
 * the receiving task's throughput, as they do between subtasks in one process. Until the first
 * credit comes back the sender fills full batches, as a local sender does before the gate's first
 * measurement.
 */
public final class RemoteChannel implements BatchReceiver {
  private final AttemptId attempt;
  private final String vertexId;
  private final int subtask;
  private final RpcConnection connection;
  private final RecordEncoding encoding;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition credited = lock.newCondition();
  private int credits;
  private volatile int recordsPerBatch = Integer.MAX_VALUE;
  // Whether the sender was asked to stop waiting for a credit (a checkpoint came to its task).
  private boolean senderWoken;

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
    this.credits = credits;
    this.encoding = encoding;
  }

  @Override
  public void put(Batch batch) throws InterruptedException {
    byte[] payload = encode(batch);
    boolean endsWithBarrier = endsWithBarrier(batch);
    if (!endsWithBarrier) {
      takeCredit(false);
    }
    send(batch, endsWithBarrier, payload);
  }

  @Override
  public boolean putUnlessWoken(Batch batch) throws InterruptedException {
    boolean endsWithBarrier = endsWithBarrier(batch);
    if (!endsWithBarrier && !takeCredit(true)) {
      return false;
    }
    send(batch, endsWithBarrier, encode(batch));
    return true;
  }

  @Override
  public void wakeSender(int channel) {
    lock.lock();
    try {
      senderWoken = true;
      credited.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits for a credit and takes it; unless woken, in which case it ends the wait without one.
   *
   * @return whether a credit was taken
   */
  private boolean takeCredit(boolean unlessWoken) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (credits == 0) {
        if (unlessWoken && senderWoken) {
          senderWoken = false;
          return false;
        }
        credited.await();
      }
      credits--;
      if (unlessWoken) {
        senderWoken = false;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int recordsPerBatch() {
    return recordsPerBatch;
  }

  /** The receiver returned a credit: one more batch, of at most {@code recordsPerBatch}. */
  void onCredit(int recordsPerBatch) {
    this.recordsPerBatch = Math.max(1, recordsPerBatch);
    lock.lock();
    try {
      credits++;
      credited.signal();
    } finally {
      lock.unlock();
    }
  }

  private byte[] encode(Batch batch) {
    try {
      return BatchCodec.encode(batch, encoding);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot serialize a batch for " + vertexId + " subtask " + subtask + ": " + e, e);
    }
  }

  private static boolean endsWithBarrier(Batch batch) {
    return batch.size() > 0 && batch.value(batch.size() - 1) instanceof CheckpointBarrier;
  }

  private void send(Batch batch, boolean endsWithBarrier, byte[] payload) {
    connection.send(
        new DataMessages.DataFrame(
            attempt, vertexId, subtask, batch.channel(), batch.size(), endsWithBarrier, payload));
  }
}
