package io.weir.cluster.jobmanager;

import io.weir.cluster.ha.DeposedLeaderException;
import io.weir.cluster.ha.JobManagerHighAvailability;
import io.weir.cluster.ha.LeaderEpoch;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointIdClaims;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job store as one leader term writes it: every write is fenced by the term's epoch, and a
 * write that finds a newer epoch steps the job manager down before it throws. Thread safe.
 */
final class TermJobStore {
  private static final Logger LOG = LoggerFactory.getLogger(TermJobStore.class);

  private final JobManagerHighAvailability highAvailability;
  private final LeaderEpoch term;

  TermJobStore(JobManagerHighAvailability highAvailability, LeaderEpoch term) {
    this.highAvailability = highAvailability;
    this.term = term;
  }

  /** Records a submitted job for later leaders; blocks until ZooKeeper confirms it. */
  void store(String jobId, JobSubmission submission) throws Exception {
    fenced(() -> highAvailability.storeJob(term, jobId, submission));
  }

  /**
   * Points the job to the checkpoint or savepoint it starts from (none: it starts from scratch), so
   * that a later leader recovers it from there: recovery restores only what the pointer names.
   */
  void pointToRestored(String jobId, CompletedCheckpoint restored) throws Exception {
    if (restored != null && restored.location() != null) {
      fenced(
          () ->
              highAvailability.pointToCheckpoint(
                  term, jobId, restored.checkpointId(), restored.location().toString()));
    }
  }

  /**
   * The job's checkpoint pointer: written before the checkpoint's notifications go out. A deposed
   * leader's write throws, and the notifications never go out.
   */
  CheckpointCoordinator.CompletionListener pointer(String jobId) {
    return checkpoint -> {
      try {
        fenced(
            () ->
                highAvailability.pointToCheckpoint(
                    term, jobId, checkpoint.checkpointId(), checkpoint.location().toString()));
      } catch (Exception e) {
        throw new IllegalStateException(
            "Checkpoint "
                + checkpoint.checkpointId()
                + " of job "
                + jobId
                + " is not notified: its pointer could not be stored: "
                + e.getMessage(),
            e);
      }
    };
  }

  /** Whether this term may still change its jobs' checkpoint files (may ask ZooKeeper). */
  BooleanSupplier ownsCheckpoints() {
    return () -> highAvailability.confirmLeadership(term);
  }

  /**
   * The job's checkpoint ids as this term claims them: above every id an earlier term claimed, each
   * claimed (fenced) before its barrier goes out.
   */
  CheckpointIdClaims checkpointIds(String jobId) {
    return new CheckpointIdClaims() {
      @Override
      public long firstUnclaimed() throws IOException {
        try {
          return highAvailability.lastClaimedCheckpointId(jobId) + 1;
        } catch (Exception e) {
          throw new IOException("ZooKeeper did not answer: " + e.getMessage(), e);
        }
      }

      @Override
      public void claim(long checkpointId) throws IOException {
        try {
          fenced(() -> highAvailability.claimCheckpointId(term, jobId, checkpointId));
        } catch (Exception e) {
          throw new IOException(
              "checkpoint id " + checkpointId + " is not claimed: " + e.getMessage(), e);
        }
      }
    };
  }

  /** Forgets a job that ended for good; one that stays is logged. */
  void remove(String jobId) {
    try {
      fenced(() -> highAvailability.removeJob(term, jobId));
    } catch (Exception e) {
      LOG.warn("Job {} ended but stays in the job store: {}", jobId, e.getMessage());
    }
  }

  private void fenced(Write write) throws Exception {
    try {
      write.run();
    } catch (DeposedLeaderException e) {
      highAvailability.stepDown(term);
      throw e;
    }
  }

  private interface Write {
    void run() throws Exception;
  }
}
