package io.weir.testing;

import io.weir.runtime.checkpoint.OperatorState;

/**
 * The state of every subtask of the operator under test at one checkpoint, serialized as the
 * runtime writes it to a checkpoint. Restore it into the same harness with {@link
 * OperatorTestHarness#restore(OperatorSnapshot)}, also at another parallelism.
 */
public final class OperatorSnapshot {
  private final long checkpointId;
  private final OperatorState state;

  OperatorSnapshot(long checkpointId, OperatorState state) {
    this.checkpointId = checkpointId;
    this.state = state;
  }

  public long checkpointId() {
    return checkpointId;
  }

  /** The parallelism the operator ran with when the snapshot was taken. */
  public int parallelism() {
    return state.operator().parallelism();
  }

  OperatorState state() {
    return state;
  }

  @Override
  public String toString() {
    return "snapshot of checkpoint " + checkpointId + " at parallelism " + parallelism();
  }
}
