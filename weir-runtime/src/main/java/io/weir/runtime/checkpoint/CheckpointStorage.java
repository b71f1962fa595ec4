package io.weir.runtime.checkpoint;

import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where the checkpoints of one job are kept.
 *
 * <p>Protocol: each subtask calls {@link #storeTaskState} from an asynchronous thread after its
 * synchronous snapshot; the data is durable when it returns. Once every subtask acknowledged, the
 * coordinator calls {@link #complete}, which writes the metadata last (atomically) and only then
 * deletes checkpoints beyond the retained count. A checkpoint without valid metadata never existed.
 * Implementations are thread safe.
 */
public interface CheckpointStorage {
  StateHandle storeTaskState(long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state)
      throws IOException;

  /** Writes the metadata; the checkpoint is complete when this returns. */
  CompletedCheckpoint complete(CheckpointMetadata metadata) throws IOException;

  /**
   * As {@link #complete}, but leaves the deletion of the checkpoints it made obsolete to the
   * returned completion's {@link Completion#cleanUp}, so that the caller can tell the tasks first:
   * their commits wait for the notification, nobody waits for the deletion.
   */
  default Completion completeDeferringCleanUp(CheckpointMetadata metadata) throws IOException {
    return new Completion(complete(metadata), () -> {});
  }

  /**
   * Readies, on a thread of its own, what completing a checkpoint needs that is slow only the first
   * time in a JVM (writing metadata like {@code example}), so that the first checkpoint's
   * completion, which the sinks' first commits wait for, does not pay for it. Stores nothing; the
   * returned future completes when it is done and never fails.
   */
  default CompletableFuture<Void> prepareInBackground(CheckpointMetadata example) {
    return CompletableFuture.completedFuture(null);
  }

  /** A completed checkpoint and the housekeeping left to do after it; the latter never fails. */
  record Completion(CompletedCheckpoint checkpoint, Runnable cleanUp) {}

  /**
   * Claims checkpoint id {@code checkpointId} before its barrier goes out (see {@link
   * CheckpointIdClaims}); a storage that only one process writes claims nothing. Called by the
   * coordinator, under its lock; may block.
   *
   * @throws IOException when the checkpoint must not be triggered: another process owns the job's
   *     checkpoints now
   */
  default void claimCheckpointId(long checkpointId) throws IOException {}

  /** Deletes whatever an aborted checkpoint left; never fails for a missing one. */
  void discard(long checkpointId);

  /**
   * The newest valid retained checkpoint. A broken newer one (missing, truncated or corrupt
   * metadata or state) is reported through the listener and skipped.
   */
  Optional<CompletedCheckpoint> latest(RestoreListener listener) throws IOException;

  /**
   * Records, before it completes, that savepoint {@code checkpointId} of this job goes to {@code
   * directory}, so that a resubmission finds it; storages that do not outlive the job ignore it.
   */
  default void recordSavepoint(long checkpointId, java.nio.file.Path directory)
      throws IOException {}

  /** Forgets the record of a savepoint that was aborted; never fails. */
  default void forgetSavepoint(long checkpointId) {}

  /** The directory of the savepoint this storage writes, or empty for a job's checkpoints. */
  default java.util.Optional<java.nio.file.Path> savepointDirectory() {
    return java.util.Optional.empty();
  }

  /**
   * Where a state backend that writes files (RocksDB) puts those of checkpoint {@code
   * checkpointId}, or empty for a storage without a file system (in memory). Called by any subtask
   * on its snapshot thread.
   */
  default Optional<SnapshotFiles> snapshotFiles(long checkpointId) {
    return Optional.empty();
  }

  /** Human readable location, for messages. */
  String describe();

  /** Told about checkpoints skipped on restore and why. */
  interface RestoreListener {
    void skipped(String location, String reason);
  }
}
