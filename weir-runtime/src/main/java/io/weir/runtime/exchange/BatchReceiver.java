package io.weir.runtime.exchange;

/**
 * Where a {@link RecordWriter} hands its batches: the input gate of a subtask in this process, or a
 * channel that carries them to a subtask in another process.
 */
public interface BatchReceiver {
  /**
   * Takes the batch, blocking the sending task's thread while the receiver has no room
   * (backpressure). Called only by the sending task's thread; batches of one sender arrive in the
   * order they were put.
   */
  void put(Batch batch) throws InterruptedException;

  /**
   * The most records the sender should put in its next batch to this receiver (its credit), read by
   * the sending task's thread once per batch it starts; no limit unless the receiver adapts it.
   */
  default int recordsPerBatch() {
    return Integer.MAX_VALUE;
  }
}
