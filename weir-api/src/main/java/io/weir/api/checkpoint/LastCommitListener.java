package io.weir.api.checkpoint;

import io.weir.api.annotation.PublicEvolving;

/**
 * Told once when its subtask ends successfully, after the last commit: a sink whose committed
 * output becomes readable some time after its commit returned (a Kafka commit returns once the
 * coordinator logged it; the brokers write the markers that let {@code read_committed} readers past
 * it a moment later) waits here, so that a job's successful end means its output can be read.
 */
@PublicEvolving
public interface LastCommitListener {
  /**
   * Called on the task thread, once, when the subtask ends after the final checkpoint of a finished
   * job or after a stop-with-savepoint, both notified: every commit that the notifications started
   * has returned ({@link CommitsInBackground}); {@code close} follows. Never called when the task
   * fails or is cancelled. May block, but should bound its wait: the job's end waits for it. An
   * exception fails the task, although everything was committed; the job then restores its last
   * checkpoint, so a wait that runs out should be logged rather than thrown.
   */
  void afterLastCommit() throws Exception;
}
