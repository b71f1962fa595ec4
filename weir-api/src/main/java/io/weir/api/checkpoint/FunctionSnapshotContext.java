package io.weir.api.checkpoint;

import io.weir.api.annotation.Public;

/** The checkpoint being taken. */
@Public
public interface FunctionSnapshotContext {
  long checkpointId();

  /** When the job manager triggered the checkpoint, in epoch milliseconds. */
  long checkpointTimestamp();
}
