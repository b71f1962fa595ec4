package io.weir.runtime.state;

import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The asynchronous part of one heap snapshot: the state frozen at the barrier, written into a file
 * of the checkpoint on the snapshot thread while the task thread goes on.
 *
 * <p>FROZEN -> WRITING -> WRITTEN or FAILED. Whichever thread comes first writes: the snapshot
 * thread in the checkpoint's asynchronous part, or the task thread when the next barrier comes
 * before that part started (with several checkpoints in flight, or when a later operator of the
 * chain declined the checkpoint and its asynchronous part never comes). The other waits for the
 * result. The stage is the hand-off between the threads: the task thread shares its tables' maps
 * with the write until the stage says it is over.
 */
final class HeapSnapshotWrite {
  /** Where the write is; see the class comment for the legal moves. */
  enum Stage {
    FROZEN,
    WRITING,
    WRITTEN,
    FAILED;

    boolean canMoveTo(Stage next) {
      return switch (this) {
        case FROZEN -> next == WRITING;
        case WRITING -> next == WRITTEN || next == FAILED;
        case WRITTEN, FAILED -> false;
      };
    }

    boolean isOver() {
      return this == WRITTEN || this == FAILED;
    }
  }

  private final long checkpointId;
  private final SnapshotFiles target;
  private final HeapSnapshotFiles files;
  private final AtomicReference<Stage> stage = new AtomicReference<>(Stage.FROZEN);
  private final CompletableFuture<Map<Integer, byte[]>> keyGroups = new CompletableFuture<>();

  /** Dropped once written, so that the maps only the snapshot held can be collected. */
  private volatile FrozenHeapState state;

  HeapSnapshotWrite(
      long checkpointId, SnapshotFiles target, HeapSnapshotFiles files, FrozenHeapState state) {
    this.checkpointId = checkpointId;
    this.target = target;
    this.files = files;
    this.state = state;
  }

  /**
   * How many key groups, from the first of the range, the write no longer reads (all of them once
   * it is over); any thread.
   */
  int keyGroupsWritten() {
    FrozenHeapState frozen = state;
    return frozen == null ? Integer.MAX_VALUE : frozen.keyGroupsWritten();
  }

  /**
   * On the snapshot thread: writes the frozen state unless the task thread did or does, and returns
   * the key groups' references.
   *
   * @throws IOException when the file cannot be written, which declines the checkpoint
   */
  Map<Integer, byte[]> write() throws IOException {
    maybeWrite();
    try {
      return keyGroups.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "Interrupted while the keyed state of checkpoint " + checkpointId + " was written");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException cause) {
        throw new IOException(
            "Cannot write the keyed state of checkpoint " + checkpointId + ": " + cause, cause);
      }
      throw new IllegalStateException(
          "Cannot write the keyed state of checkpoint " + checkpointId, e.getCause());
    }
  }

  /**
   * On the task thread, before it takes the next snapshot: writes the frozen state now when the
   * snapshot thread has not started it, else waits for that write, so that afterwards nothing is
   * shared with it. A failure is the asynchronous part's to report.
   */
  void writeOrAwait() throws InterruptedException {
    maybeWrite();
    try {
      keyGroups.get();
    } catch (ExecutionException e) {
      // declines this checkpoint when its asynchronous part comes; the next one is whole
    }
  }

  /** Whether the task thread no longer shares anything with this write; on any thread. */
  boolean isOver() {
    return stage.get().isOver();
  }

  private void maybeWrite() {
    if (!stage.compareAndSet(Stage.FROZEN, Stage.WRITING)) {
      return;
    }
    try {
      Map<Integer, byte[]> written = files.write(checkpointId, target, state);
      end(Stage.WRITTEN);
      keyGroups.complete(written);
    } catch (IOException | RuntimeException e) {
      end(Stage.FAILED);
      keyGroups.completeExceptionally(e);
    } catch (Error e) {
      end(Stage.FAILED);
      keyGroups.completeExceptionally(e);
      throw e;
    }
  }

  private void end(Stage next) {
    Stage current = stage.get();
    if (!current.canMoveTo(next) || !stage.compareAndSet(current, next)) {
      throw new IllegalStateException(
          "The write of checkpoint "
              + checkpointId
              + " cannot move from "
              + current
              + " to "
              + next);
    }
    state = null;
  }
}
