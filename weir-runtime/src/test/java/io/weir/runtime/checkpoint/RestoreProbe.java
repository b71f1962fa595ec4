package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.MapFunction;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes records on and remembers which checkpoint its task was restored from (0 for a fresh start)
 * and the checkpoints taken since. Static because the runtime works on serialized copies of
 * functions.
 */
final class RestoreProbe<T> implements MapFunction<T, T>, CheckpointedFunction {
  static final AtomicLong RESTORED_CHECKPOINT = new AtomicLong(-1);

  /** The ids of the checkpoints taken since. */
  static final ConcurrentLinkedQueue<Long> SNAPSHOTS = new ConcurrentLinkedQueue<>();

  static void reset() {
    RESTORED_CHECKPOINT.set(-1);
    SNAPSHOTS.clear();
  }

  @Override
  public T map(T value) {
    return value;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    RESTORED_CHECKPOINT.set(context.restoredCheckpointId().orElse(0));
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    SNAPSHOTS.add(context.checkpointId());
  }
}
