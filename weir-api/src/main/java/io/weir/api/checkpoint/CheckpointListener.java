package io.weir.api.checkpoint;

import io.weir.api.annotation.Public;

/**
 * Told when a checkpoint completed (every task acknowledged it and its metadata is stored) or was
 * aborted.
 *
 * <p>Called on the task thread, never concurrently with record processing. Inside one task the
 * chained operators are told in the job's notify order, by default tail first (sink before source),
 * as the checkpoint's acknowledgements were. Notifications may be lost or arrive late: a listener
 * told about checkpoint N must treat every earlier unconfirmed checkpoint as complete too. An
 * exception thrown here does not make the checkpoint incomplete (it already is complete); it fails
 * the task, and the job restores from that checkpoint.
 */
@Public
public interface CheckpointListener {
  void notifyCheckpointComplete(long checkpointId) throws Exception;

  /** The checkpoint was declined or expired; its state will never be restored. */
  default void notifyCheckpointAborted(long checkpointId) throws Exception {}
}
