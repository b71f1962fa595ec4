package io.weir.runtime.operators;

import io.weir.api.sink.TransactionView;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.List;
import java.util.Map;

/**
 * One operator of a chain, as the task runs it. All methods are called on the task thread, in this
 * order: {@link #initializeState}, {@link #open}, then any of {@link #processElement}, {@link
 * #processWatermark}, {@link #snapshotState}, {@link #notifyCheckpointComplete}, {@link
 * #notifyCheckpointAborted}; {@link #endInput} once when no more records will come (the final
 * checkpoint follows it); {@link #afterLastCommit} once when the task ends successfully; {@link
 * #close} last, also after a failure.
 */
public interface StreamOperator {
  OperatorSetup setup();

  void initializeState() throws Exception;

  void open() throws Exception;

  void processElement(Object record, long timestamp) throws Exception;

  void processWatermark(long watermark) throws Exception;

  void processWatermarkStatus(boolean idle) throws Exception;

  /** Emits whatever the operator still holds; no more input follows. */
  void endInput() throws Exception;

  /** The operator's state at checkpoint {@code checkpointId}, copied so it may change after. */
  OperatorSubtaskState snapshotState(long checkpointId, long timestamp) throws Exception;

  /**
   * The asynchronous part of checkpoint {@code checkpointId}, on the task's snapshot thread after
   * {@code snapshotState} returned on the task thread: writes out what the snapshot set aside (the
   * files of a RocksDB backend, the frozen state of a heap backend). Returns the keyed state's key
   * groups written only now, which complete those of {@code snapshotState}; empty when there are
   * none. Throwing declines the checkpoint.
   */
  default Map<Integer, byte[]> materializeSnapshot(long checkpointId) throws Exception {
    return Map.of();
  }

  void notifyCheckpointComplete(long checkpointId) throws Exception;

  /** Whether the operator's function is told about checkpoints ({@code CheckpointListener}). */
  default boolean listensToCheckpoints() {
    return false;
  }

  /**
   * Waits for the commits that its notifications started and that run on past them ({@code
   * CommitsInBackground}); returns at once for any other operator.
   */
  default void awaitCommitsInFlight() throws Exception {}

  void notifyCheckpointAborted(long checkpointId) throws Exception;

  /**
   * The task ends successfully (after the final checkpoint, or a stop-with-savepoint, was notified)
   * and {@link #awaitCommitsInFlight} returned: the function waits, if it is a {@code
   * LastCommitListener}, until what it committed can be read. Not called after a failure or cancel.
   */
  default void afterLastCommit() throws Exception {}

  void close() throws Exception;

  long recordsIn();

  long recordsOut();

  /**
   * A two-phase-commit sink's open and pending transactions, for observers; empty for any other
   * operator. Unlike the methods above, called from any thread; never blocks.
   */
  default List<TransactionView> transactions() {
    return List.of();
  }

  /**
   * The gauges the operator's function added ({@code RuntimeContext.metricGroup()}), by name, read
   * now. Like {@link #transactions}, called from any thread.
   */
  default Map<String, Double> gauges() {
    return Map.of();
  }
}
