package io.weir.api.checkpoint;

import io.weir.api.annotation.PublicEvolving;

/**
 * A {@link CheckpointListener} whose notification starts its commits rather than making them (a
 * sink that commits on a thread of its own). The runtime waits for them before it tells an operator
 * notified later in the same chain, so that the chain's notify order still orders the effects: in
 * the one-task plan, the sink's commit ends before the source commits its offsets, as the seed
 * describes.
 */
@PublicEvolving
public interface CommitsInBackground {
  /**
   * Waits until every commit that the notifications so far started has returned; throws the first
   * that failed. Called on the task thread, after {@code notifyCheckpointComplete}.
   */
  void awaitCommitsInFlight() throws Exception;
}
