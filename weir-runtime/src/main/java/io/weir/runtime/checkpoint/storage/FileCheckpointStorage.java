package io.weir.runtime.checkpoint.storage;

import io.weir.files.DurableFiles;
import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of one job on a file system: {@code <job directory>/chk-<id>/}.
 *
 * <p>A checkpoint exists once its {@code _metadata} is renamed into place; directories without it
 * are leftovers of aborted or crashed checkpoints. Completing checkpoint N keeps the newest {@code
 * retained} complete checkpoints (N included) and deletes the older rest, including older
 * directories that never completed, since N subsumes them. Savepoints are never deleted.
 *
 * <p>Thread safe: subtasks store concurrently; completion and pruning are serialized.
 */
public final class FileCheckpointStorage implements CheckpointStorage {
  /** As in the seed: only the last completed checkpoint is kept. */
  public static final int DEFAULT_RETAINED = 1;

  private static final Logger LOG = LoggerFactory.getLogger(FileCheckpointStorage.class);

  private final Path jobDirectory;
  private final int retained;
  // Which operators each stored snapshot holds, not their state: enough to check that the
  // checkpoint can be assembled without reading back the files just written.
  private final Map<PendingKey, TaskSnapshot> pendingSnapshots = new ConcurrentHashMap<>();
  private final Object completionLock = new Object();

  /**
   * @param jobDirectory the directory of this job's checkpoints, created on first use
   * @param retained how many completed checkpoints to keep, at least 1
   */
  public FileCheckpointStorage(Path jobDirectory, int retained) {
    if (retained < 1) {
      throw new IllegalArgumentException("retained checkpoints must be at least 1: " + retained);
    }
    this.jobDirectory = jobDirectory;
    this.retained = retained;
  }

  /** The storage of job {@code jobName} below {@code checkpointRoot}. */
  public static FileCheckpointStorage forJob(Path checkpointRoot, String jobName, int retained) {
    return new FileCheckpointStorage(checkpointRoot.resolve(jobName), retained);
  }

  /** A storage that writes one savepoint into {@code targetDirectory}. */
  public static SavepointStorage forSavepoint(Path targetDirectory) {
    return new SavepointStorage(targetDirectory);
  }

  public Path jobDirectory() {
    return jobDirectory;
  }

  /** The directory of checkpoint {@code checkpointId}, whether or not it exists. */
  public Path checkpointDirectory(long checkpointId) {
    return jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
  }

  @Override
  public StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) throws IOException {
    StateHandle handle =
        CheckpointWriter.writeState(checkpointDirectory(checkpointId), taskId, subtaskIndex, state);
    pendingSnapshots.put(new PendingKey(checkpointId, taskId, subtaskIndex), operatorsOf(state));
    return handle;
  }

  /** Files shared between checkpoints live in {@code <job directory>/shared/}. */
  @Override
  public Optional<SnapshotFiles> snapshotFiles(long checkpointId) {
    return Optional.of(
        new SnapshotFiles(
            CheckpointLayout.sharedDirectory(jobDirectory),
            true,
            checkpointDirectory(checkpointId)));
  }

  @Override
  public CompletedCheckpoint complete(CheckpointMetadata metadata) throws IOException {
    Completion completion = completeDeferringCleanUp(metadata);
    completion.cleanUp().run();
    return completion.checkpoint();
  }

  /**
   * Serializes {@code example} once and drops the bytes: the first serialization of metadata in a
   * JVM loads and builds the JSON serializers (about 0.2 s on two busy cores), which would
   * otherwise come between the first checkpoint's last acknowledgement and its completion.
   */
  @Override
  public CompletableFuture<Void> prepareInBackground(CheckpointMetadata example) {
    CompletableFuture<Void> prepared = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                MetadataFormat.toBytes(example);
              } catch (RuntimeException e) {
                // Only the first completion is slower; it reports what is really wrong.
                LOG.debug("Could not prepare the metadata format: {}", e.toString());
              } finally {
                prepared.complete(null);
              }
            },
            "checkpoint metadata preparation");
    thread.setDaemon(true);
    thread.start();
    return prepared;
  }

  @Override
  public Completion completeDeferringCleanUp(CheckpointMetadata metadata) throws IOException {
    long checkpointId = metadata.checkpointId();
    Path directory = checkpointDirectory(checkpointId);
    synchronized (completionLock) {
      // Assembled before the metadata is written: a checkpoint that could not be restored must
      // not come into existence.
      CheckpointAssembler.operators(
          metadata, directory.toString(), handle -> snapshotOf(checkpointId, directory, handle));
      CheckpointWriter.writeMetadata(directory, metadata);
      forgetPending(checkpointId);
      return new Completion(
          StoredOperatorStates.checkpoint(metadata, directory),
          () -> {
            synchronized (completionLock) {
              maybePruneOlderThan(checkpointId);
            }
          });
    }
  }

  @Override
  public void discard(long checkpointId) {
    forgetPending(checkpointId);
    Path directory = checkpointDirectory(checkpointId);
    try {
      Directories.deleteRecursively(directory);
    } catch (IOException e) {
      // Leftovers are harmless without _metadata; the next completion's pruning retries.
      LOG.warn("Could not delete aborted checkpoint {}: {}", directory, e.toString());
    }
  }

  @Override
  public Optional<CompletedCheckpoint> latest(RestoreListener listener) throws IOException {
    return CheckpointLoader.newestValid(jobDirectory, listener);
  }

  @Override
  public void recordSavepoint(long checkpointId, Path directory) throws IOException {
    SavepointRecords.record(jobDirectory, checkpointId, directory);
  }

  @Override
  public void forgetSavepoint(long checkpointId) {
    try {
      SavepointRecords.forget(jobDirectory, checkpointId);
    } catch (IOException e) {
      // A record of a savepoint without _metadata is skipped as never completed.
      LOG.warn("Could not forget aborted savepoint {}: {}", checkpointId, e.toString());
    }
  }

  @Override
  public String describe() {
    return jobDirectory.toString();
  }

  private TaskSnapshot snapshotOf(long checkpointId, Path directory, SubtaskStateHandle handle)
      throws InvalidCheckpointException {
    TaskSnapshot pending =
        pendingSnapshots.get(new PendingKey(checkpointId, handle.taskId(), handle.subtaskIndex()));
    return pending != null ? pending : CheckpointReader.readState(directory, handle);
  }

  /** The operators {@code snapshot} holds, each with an empty state. */
  private static TaskSnapshot operatorsOf(TaskSnapshot snapshot) {
    Map<String, OperatorSubtaskState> operators = new HashMap<>();
    snapshot.operators().keySet().forEach(uid -> operators.put(uid, OperatorSubtaskState.EMPTY));
    return new TaskSnapshot(operators);
  }

  private void forgetPending(long checkpointId) {
    pendingSnapshots.keySet().removeIf(key -> key.checkpointId() == checkpointId);
  }

  /** Pruning is housekeeping: failing it must not fail a checkpoint that already completed. */
  private void maybePruneOlderThan(long checkpointId) {
    try {
      pruneOlderThan(checkpointId);
    } catch (IOException e) {
      LOG.warn(
          "Could not delete checkpoints older than {} in {}: {}",
          checkpointId,
          jobDirectory,
          e.toString());
    }
  }

  private void pruneOlderThan(long checkpointId) throws IOException {
    int keptCompleted = 1;
    List<Path> directories = CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory);
    for (Path directory : directories) {
      long id = CheckpointLayout.checkpointIdOf(directory).getAsLong();
      if (id >= checkpointId) {
        continue;
      }
      Path metadata = directory.resolve(MetadataFormat.FILE_NAME);
      boolean completed = Files.isRegularFile(metadata);
      if (completed && MetadataFormat.isSavepoint(Files.readAllBytes(metadata))) {
        continue;
      }
      if (completed && keptCompleted < retained) {
        keptCompleted++;
        continue;
      }
      forgetPending(id);
      // _metadata goes first, so a crash in the middle leaves a directory that is not a checkpoint.
      Files.deleteIfExists(metadata);
      Directories.deleteRecursively(directory);
    }
    DurableFiles.forceDirectory(jobDirectory);
    StateFileListings.deleteUnreferenced(jobDirectory);
  }

  private record PendingKey(long checkpointId, String taskId, int subtaskIndex) {}
}
