package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.functions.MapFunction;

/** Passes records on unchanged and logs the checkpoint notifications it gets under its name. */
final class ListeningMap<T> implements MapFunction<T, T>, CheckpointListener {
  private final String name;

  ListeningMap(String name) {
    this.name = name;
  }

  @Override
  public T map(T value) {
    return value;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    NotificationLog.record(name, checkpointId);
  }
}
