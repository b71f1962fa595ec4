package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.RichFunction;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.source.ParallelSourceFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Emits the ids {@code firstId .. firstId+count-1}, cut into a fixed number of splits (split {@code
 * s} holds the ids {@code s, s+splits, ...}). Each split's position is one element of its operator
 * list state, so a restore with another parallelism hands the splits out again and the sequence
 * goes on where the checkpoint was taken. Emits round robin over its splits, optionally paced, and
 * logs the checkpoint notifications it gets under its name.
 */
final class SplitSequenceSource
    implements ParallelSourceFunction<Long>,
        CheckpointedFunction,
        CheckpointListener,
        RichFunction {
  static final String STATE_NAME = "splits";

  /** One split and the index of its next id. */
  record Split(int split, long nextIndex) implements Serializable {}

  private final String name;
  private final long firstId;
  private final long count;
  private final int splits;
  private final long recordsPerSecond;
  private transient RuntimeContext runtimeContext;
  private transient ListState<Split> state;
  private transient List<Split> owned;
  private transient volatile boolean running;

  SplitSequenceSource(String name, long firstId, long count, int splits, long recordsPerSecond) {
    this.name = name;
    this.firstId = firstId;
    this.count = count;
    this.splits = splits;
    this.recordsPerSecond = recordsPerSecond;
  }

  @Override
  public void setRuntimeContext(RuntimeContext context) {
    this.runtimeContext = context;
  }

  @Override
  public RuntimeContext getRuntimeContext() {
    return runtimeContext;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(STATE_NAME));
    owned = new ArrayList<>();
    if (context.isRestored()) {
      owned.addAll(state.get());
      return;
    }
    for (int split = runtimeContext.subtaskIndex();
        split < splits;
        split += runtimeContext.parallelism()) {
      owned.add(new Split(split, split));
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    state.update(List.copyOf(owned));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    NotificationLog.record(name, checkpointId);
  }

  @Override
  public void run(SourceContext<Long> context) throws InterruptedException {
    running = true;
    long started = System.nanoTime();
    long emitted = 0;
    while (running && emitNextRound(context)) {
      emitted++;
      if (recordsPerSecond > 0) {
        long wait = started + emitted * 1_000_000_000L / recordsPerSecond - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
    }
  }

  /** Emits the next id of one split, round robin; false when every split is done. */
  private boolean emitNextRound(SourceContext<Long> context) {
    synchronized (context.getCheckpointLock()) {
      for (int i = 0; i < owned.size(); i++) {
        Split split = owned.get(i);
        if (split.nextIndex() < count) {
          context.collect(firstId + split.nextIndex());
          owned.set(i, new Split(split.split(), split.nextIndex() + splits));
          // Move the split to the end so the next round starts with another one.
          owned.add(owned.remove(i));
          return true;
        }
      }
      return false;
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}
