package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.sink.SinkFunction;

/** Discards records and logs the checkpoint notifications it gets under its name. */
final class ListeningSink<T> implements SinkFunction<T>, CheckpointListener {
  private final String name;

  ListeningSink(String name) {
    this.name = name;
  }

  @Override
  public void invoke(T value, Context context) {}

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    NotificationLog.record(name, checkpointId);
  }
}
