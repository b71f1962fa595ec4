package io.weir.runtime.checkpoint;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One stop-with-savepoint of a job attempt, in phases: REQUESTED -> SAVEPOINT_PENDING ->
 * TERMINATING -> STOPPED; any phase but STOPPED -> FAILED.
 *
 * <ul>
 *   <li>SAVEPOINT_PENDING: periodic checkpoints are stopped and the savepoint's barrier went to the
 *       sources, which emit nothing after it.
 *   <li>TERMINATING: the savepoint completed and its notification went out; every task was then
 *       asked to terminate, which it does only after processing that notification (its sinks
 *       committed).
 *   <li>STOPPED: every task terminated; {@link #result} completes with the savepoint.
 *   <li>FAILED: the savepoint was aborted (the sources go on, and periodic checkpoints again) or
 *       the attempt failed; {@link #result} fails with a line for the user.
 * </ul>
 *
 * <p>Moved on by the attempt's own thread, or failed by a caller once the attempt ended; any thread
 * may wait on {@link #result}. Thread safe.
 */
public final class SavepointStop {
  /** The phases above; an illegal move throws. */
  public enum Phase {
    REQUESTED,
    SAVEPOINT_PENDING,
    TERMINATING,
    STOPPED,
    FAILED;

    boolean canMoveTo(Phase next) {
      return switch (this) {
        case REQUESTED -> next == SAVEPOINT_PENDING || next == FAILED;
        case SAVEPOINT_PENDING -> next == TERMINATING || next == FAILED;
        case TERMINATING -> next == STOPPED || next == FAILED;
        case STOPPED, FAILED -> false;
      };
    }
  }

  private final Path directory;
  private final CheckpointStorage storage;
  private final CompletableFuture<CompletedCheckpoint> result = new CompletableFuture<>();
  private Phase phase = Phase.REQUESTED;
  private CompletedCheckpoint savepoint;

  /** A stop into {@code directory}, whose checkpoint storage is {@code storage}. */
  public SavepointStop(Path directory, CheckpointStorage storage) {
    this.directory = directory;
    this.storage = storage;
  }

  public Path directory() {
    return directory;
  }

  public synchronized Phase phase() {
    return phase;
  }

  /** Completes with the savepoint once every task ended after its sinks committed. */
  public CompletableFuture<CompletedCheckpoint> result() {
    return result;
  }

  /**
   * Triggers the savepoint; {@code onSavepointDone} is called (on whichever thread completes it)
   * with the savepoint or the failure, and must hand it to the attempt's thread.
   */
  public synchronized void trigger(
      CheckpointCoordinator coordinator,
      BiConsumer<CompletedCheckpoint, Throwable> onSavepointDone) {
    moveTo(Phase.SAVEPOINT_PENDING);
    coordinator
        .triggerSavepoint(storage, CheckpointKind.STOP_SAVEPOINT)
        .whenComplete(onSavepointDone);
  }

  /**
   * The savepoint completed and its notification went out: the caller now asks every task to
   * terminate.
   */
  public synchronized void savepointCompleted(CompletedCheckpoint completed) {
    moveTo(Phase.TERMINATING);
    this.savepoint = completed;
  }

  /** Every task terminated after the savepoint's notification. */
  public synchronized void stopped() {
    moveTo(Phase.STOPPED);
    result.complete(savepoint);
  }

  /** Ends the stop with a failure; a no-op once it stopped or failed. */
  public synchronized void fail(String reason, Throwable cause) {
    if (!phase.canMoveTo(Phase.FAILED)) {
      return;
    }
    phase = Phase.FAILED;
    String where = savepoint == null ? "" : " (savepoint " + savepoint.location() + " is complete)";
    result.completeExceptionally(new IllegalStateException(reason + where, cause));
  }

  private synchronized void moveTo(Phase next) {
    if (!phase.canMoveTo(next)) {
      throw new IllegalStateException(
          "A stop with savepoint cannot move from " + phase + " to " + next);
    }
    phase = next;
  }
}
