package io.weir.runtime.jobmaster;

import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.SavepointStop;
import io.weir.runtime.jobmaster.AttemptEvent.FinalCheckpointDone;
import io.weir.runtime.jobmaster.AttemptEvent.StopSavepointDone;
import java.util.function.Consumer;

/**
 * How one job attempt comes to its end, decided and carried out (its phases are {@link
 * AttemptEnding}):
 *
 * <ul>
 *   <li>at the end of its input: once every subtask finished its data, periodic checkpoints stop
 *       and the final checkpoint (tried again a few times) commits the rest; then every subtask is
 *       asked to terminate;
 *   <li>with a savepoint: the stop's savepoint takes the place of the final checkpoint; once it
 *       completed every subtask is asked to terminate after its notification; when it aborts the
 *       attempt runs on;
 *   <li>at a failure, a lost task manager or a cancel: the coordinator shuts down, every subtask is
 *       cancelled and a stop under way fails with the cause.
 * </ul>
 *
 * <p>Called on the attempt's thread only, in the order of the attempt's events; no method blocks.
 * What a checkpoint or savepoint it triggered came to is queued back to that thread as an {@link
 * AttemptEvent}, by the thread that completed it. A method that returns a {@code Throwable} returns
 * the attempt's failure (the attempt then ends with {@link #fail}), or null while it goes on.
 */
final class AttemptEnd {
  private static final int MAX_FINAL_CHECKPOINT_TRIES = 5;

  private final CheckpointCoordinator coordinator;
  private final AttemptTaskManagers taskManagers;
  private final int subtaskCount;
  private final Consumer<AttemptEvent> events;
  // The stop-with-savepoint under way, or null.
  private SavepointStop stop;
  private AttemptEnding ending = AttemptEnding.RUNNING;
  // The subtasks that finished their data, and the tries of the final checkpoint so far.
  private int dataFinished;
  private int finalTries;

  /**
   * @param subtaskCount how many subtasks the attempt runs
   * @param events the attempt's queue, to which completed checkpoints and savepoints go
   */
  AttemptEnd(
      CheckpointCoordinator coordinator,
      AttemptTaskManagers taskManagers,
      int subtaskCount,
      Consumer<AttemptEvent> events) {
    this.coordinator = coordinator;
    this.taskManagers = taskManagers;
    this.subtaskCount = subtaskCount;
    this.events = events;
  }

  /**
   * A subtask finished its data; after the last one the final checkpoint begins, unless stopping.
   */
  void dataFinished() {
    dataFinished++;
    if (ending == AttemptEnding.RUNNING) {
      maybeBeginFinalCheckpoint();
    }
  }

  /**
   * The final checkpoint completed (every subtask is asked to terminate after its notification) or
   * failed (taken again, until it failed too often: the attempt's failure).
   */
  Throwable finalCheckpointDone(Throwable failure) {
    if (failure == null) {
      ending = ending.moveTo(AttemptEnding.TERMINATING);
      taskManagers.terminate();
      return null;
    }
    if (finalTries++ < MAX_FINAL_CHECKPOINT_TRIES) {
      triggerFinalCheckpoint();
      return null;
    }
    return new IllegalStateException(
        "The final checkpoint failed " + MAX_FINAL_CHECKPOINT_TRIES + " times", failure);
  }

  /**
   * Starts a stop-with-savepoint, or fails it at once when another is under way or the attempt
   * finishes by itself.
   */
  void stopRequested(SavepointStop requested) {
    if (stop != null) {
      requested.fail("The job is stopping with a savepoint already", null);
      return;
    }
    if (ending != AttemptEnding.RUNNING) {
      // Its final checkpoint commits everything; a savepoint beside it would only race it.
      requested.fail(
          "The job finished before it could stop with a savepoint: every subtask reached the end"
              + " of its input, and the final checkpoint commits its output",
          null);
      return;
    }
    ending = ending.moveTo(AttemptEnding.STOPPING);
    stop = requested;
    synchronized (coordinator) {
      taskManagers.routeSavepoint(coordinator.nextCheckpointId(), stop.directory());
      stop.trigger(
          coordinator,
          (savepoint, failure) -> events.accept(new StopSavepointDone(savepoint, failure)));
    }
  }

  /**
   * A completed stop-with-savepoint ends every subtask after its notification (calls to a task
   * manager arrive in order); an aborted one lets the job go on (its sources resume), or take its
   * final checkpoint when every subtask finished its data meanwhile; one complete but not told to
   * the tasks fails the attempt, which then restores from it.
   */
  Throwable stopSavepointDone(CompletedCheckpoint savepoint, Throwable failure) {
    if (failure == null) {
      stop.savepointCompleted(savepoint);
      ending = ending.moveTo(AttemptEnding.TERMINATING);
      taskManagers.terminate();
      return null;
    }
    if (failure instanceof CheckpointCoordinator.NotificationLostException lost) {
      return lost;
    }
    stop.fail("The savepoint failed, the job goes on: " + failure.getMessage(), failure);
    stop = null;
    ending = ending.moveTo(AttemptEnding.RUNNING);
    maybeBeginFinalCheckpoint();
    return null;
  }

  /** Every subtask terminated: the attempt succeeded, and a stop under way has its savepoint. */
  void succeed() {
    coordinator.shutDown();
    if (stop != null) {
      stop.stopped();
    }
  }

  /** Ends the attempt at {@code failure}: every subtask is cancelled; returns {@code failure}. */
  Throwable fail(Throwable failure) {
    coordinator.shutDown();
    taskManagers.cancel();
    if (stop != null) {
      stop.fail("The job failed while stopping with a savepoint: " + failure.getMessage(), failure);
    }
    return failure;
  }

  /** True once the attempt ended because it stopped with a savepoint. */
  boolean stoppedWithSavepoint() {
    return stop != null && stop.phase() == SavepointStop.Phase.STOPPED;
  }

  /**
   * Once every subtask finished its data, stops periodic checkpoints and takes the final one; while
   * a stop-with-savepoint is under way its savepoint takes that place (see {@link AttemptEnding}).
   */
  private void maybeBeginFinalCheckpoint() {
    if (dataFinished < subtaskCount) {
      return;
    }
    ending = ending.moveTo(AttemptEnding.FINAL_CHECKPOINT);
    coordinator.stopPeriodic();
    finalTries++;
    triggerFinalCheckpoint();
  }

  private void triggerFinalCheckpoint() {
    coordinator
        .trigger()
        .whenComplete((checkpoint, failure) -> events.accept(new FinalCheckpointDone(failure)));
  }
}
