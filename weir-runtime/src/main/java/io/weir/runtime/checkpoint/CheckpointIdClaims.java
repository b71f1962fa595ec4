package io.weir.runtime.checkpoint;

import java.io.IOException;

/**
 * The checkpoint ids of a job whose checkpoints several processes own by turns (highly available
 * job managers, one leader at a time): each id is claimed before its barrier goes out, and a new
 * owner starts above every id an earlier owner claimed. So a deposed owner that still completes a
 * checkpoint it had pending (it was frozen after its last ownership check) writes into a directory
 * no later owner ever uses.
 *
 * <p>Thread safe; both calls may block (a round trip to where the claims are kept).
 */
public interface CheckpointIdClaims {
  /** A job run by one process only: every id is its own. */
  CheckpointIdClaims UNSHARED =
      new CheckpointIdClaims() {
        @Override
        public long firstUnclaimed() {
          return 1;
        }

        @Override
        public void claim(long checkpointId) {}
      };

  /** The lowest id no owner has claimed: where this owner's ids start, at the earliest. */
  long firstUnclaimed() throws IOException;

  /**
   * Claims {@code checkpointId} for this owner, above every id claimed before.
   *
   * @throws IOException when the claim is not recorded, e.g. because another owner took over: the
   *     checkpoint must then not be triggered
   */
  void claim(long checkpointId) throws IOException;
}
