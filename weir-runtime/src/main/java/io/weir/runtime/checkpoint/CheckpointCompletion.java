package io.weir.runtime.checkpoint;

import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.startup.StartupPhases;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The completion step of a checkpoint every subtask acknowledged, in two parts: {@link #store}
 * writes its metadata, which makes it complete (or aborts it when that fails), and {@link
 * #announce} then tells the completion listener and every task, and only after that cleans up what
 * it subsumes in storage. The coordinator ends the checkpoint's bookkeeping (its status, the
 * pending checkpoints it subsumes, the next periodic trigger) between the two.
 *
 * <p>Called under the coordinator's lock, on the thread of the last acknowledgement; the gateway's
 * calls do not block.
 */
final class CheckpointCompletion {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointCompletion.class);

  private final String jobName;
  private final List<OperatorInfo> operators;
  private final CheckpointStorage storage;
  private final CheckpointCoordinator.TaskGateway gateway;
  private final Clock clock;
  private final CheckpointCoordinator.CompletionListener listener;
  private final CheckpointHistory history;
  private final Failpoints failpoints;

  CheckpointCompletion(
      String jobName,
      List<OperatorInfo> operators,
      CheckpointStorage storage,
      CheckpointCoordinator.TaskGateway gateway,
      Clock clock,
      CheckpointCoordinator.CompletionListener listener,
      CheckpointHistory history,
      Failpoints failpoints) {
    this.jobName = jobName;
    this.operators = List.copyOf(operators);
    this.storage = storage;
    this.gateway = gateway;
    this.clock = clock;
    this.listener = listener;
    this.history = history;
    this.failpoints = failpoints;
  }

  /**
   * Stores the metadata of {@code checkpoint}, no longer pending. Empty when it could not be
   * stored: then the checkpoint has ended ABORTED, its files are discarded, the tasks are told and
   * its result has failed.
   *
   * @param firstCompletion whether no checkpoint of this attempt completed yet
   */
  Optional<CheckpointStorage.Completion> store(
      PendingCheckpoint checkpoint, boolean firstCompletion) {
    long id = checkpoint.checkpointId;
    try {
      failpoints.hit(FailpointNames.COORDINATOR_METADATA_BEFORE);
      CheckpointStorage.Completion completion =
          storage.completeDeferringCleanUp(
              new CheckpointMetadata(
                  id,
                  checkpoint.timestamp,
                  jobName,
                  checkpoint.kind.isSavepoint(),
                  operators,
                  checkpoint.states(),
                  0, // the job's storage records the epoch of its lease
                  CheckpointMetadata.encodeEnumeratorStates(checkpoint.masterStates)));
      history.metadataStored(id, clock.millis());
      if (firstCompletion) {
        StartupPhases.reached("checkpoint " + id + "'s metadata stored (the first completed)");
      }
      failpoints.hit(FailpointNames.COORDINATOR_METADATA_AFTER);
      return Optional.of(completion);
    } catch (Exception e) {
      LOG.warn("Checkpoint {} of job '{}' could not be stored", id, jobName, e);
      checkpoint.end(CheckpointStatus.ABORTED);
      storage.discard(id);
      history.aborted(id, clock.millis(), "its metadata could not be stored: " + e.getMessage());
      gateway.notifyCheckpointAborted(id);
      checkpoint.result.completeExceptionally(e);
      return Optional.empty();
    }
  }

  /**
   * Tells the listener and the tasks that {@code checkpoint}, stored as {@code completion}, is
   * complete, then cleans up what it subsumes and completes its result. A notification that cannot
   * be sent fails the result with a {@link CheckpointCoordinator.NotificationLostException}; the
   * checkpoint stays complete.
   */
  void announce(PendingCheckpoint checkpoint, CheckpointStorage.Completion completion) {
    long id = checkpoint.checkpointId;
    // The checkpoint is complete whether or not its notification arrives: failovers restore it,
    // and the next checkpoint's notification commits what this one's would have.
    listener.onCompleted(completion.checkpoint());
    try {
      failpoints.hit(FailpointNames.COORDINATOR_NOTIFY_BEFORE);
      gateway.notifyCheckpointComplete(id);
      history.notified(id, clock.millis());
    } catch (RuntimeException e) {
      LOG.warn(
          "Checkpoint {} of job '{}' is complete but the tasks were not told: {}",
          id,
          jobName,
          e.toString());
      // A caller waiting on the result (the final checkpoint) must take another checkpoint,
      // whose notification covers this one.
      checkpoint.result.completeExceptionally(
          new CheckpointCoordinator.NotificationLostException(id, e));
      completion.cleanUp().run();
      return;
    }
    // After the notification: the sinks' commits wait for it, not for deleting old checkpoints.
    completion.cleanUp().run();
    checkpoint.result.complete(completion.checkpoint());
  }
}
