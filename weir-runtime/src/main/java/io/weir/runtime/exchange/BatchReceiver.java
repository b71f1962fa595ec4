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
   * Takes the batch as {@link #put} does, except that a wait for room ends, without taking the
   * batch, once the sender of the batch's channel is woken ({@link #wakeSender}): the sender then
   * holds the batch and takes its checkpoint, whose barrier takes the batch along. Called only by
   * the sending task's thread. A receiver whose barriers do not overtake never returns false.
   *
   * @return whether the batch was taken
   */
  default boolean putUnlessWoken(Batch batch) throws InterruptedException {
    put(batch);
    return true;
  }

  /**
   * Ends the sender's current or next wait for room in {@link #putUnlessWoken} on {@code channel}:
   * a checkpoint came to its task. Called by any thread; does nothing unless barriers overtake
   * here.
   */
  default void wakeSender(int channel) {}

  /**
   * The most records the sender should put in its next batch to this receiver (its credit), read by
   * the sending task's thread once per batch it starts; no limit unless the receiver adapts it.
   */
  default int recordsPerBatch() {
    return Integer.MAX_VALUE;
  }
}
