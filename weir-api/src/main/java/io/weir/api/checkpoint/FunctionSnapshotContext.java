package io.weir.api.checkpoint;

/** The checkpoint being taken. */
public interface FunctionSnapshotContext {
  long checkpointId();

  /** When the job manager triggered the checkpoint, in epoch milliseconds. */
  long checkpointTimestamp();
}
