package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.StateFileListing;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one savepoint into a directory the user chose, in the layout of a checkpoint directory and
 * marked {@code savepoint: true}. Nothing here deletes a completed savepoint; {@link #discard} only
 * removes the files of one that did not complete.
 *
 * <p>Thread safe, like every {@link CheckpointStorage}.
 */
public final class SavepointStorage implements CheckpointStorage {
  private static final Logger LOG = LoggerFactory.getLogger(SavepointStorage.class);

  private final Path directory;
  private final Set<String> writtenFiles = ConcurrentHashMap.newKeySet();

  public SavepointStorage(Path directory) {
    this.directory = directory;
  }

  @Override
  public java.util.Optional<Path> savepointDirectory() {
    return java.util.Optional.of(directory());
  }

  public Path directory() {
    return directory;
  }

  /** A savepoint holds its own copy of every file: it outlives the job's checkpoints. */
  @Override
  public Optional<SnapshotFiles> snapshotFiles(long checkpointId) {
    return Optional.of(
        new SnapshotFiles(CheckpointLayout.savepointFilesDirectory(directory), false, directory));
  }

  @Override
  public StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) throws IOException {
    refuseExistingSavepoint();
    StateHandle handle = CheckpointWriter.writeState(directory, taskId, subtaskIndex, state);
    writtenFiles.add(handle.file());
    return handle;
  }

  @Override
  public CompletedCheckpoint complete(CheckpointMetadata metadata) throws IOException {
    refuseExistingSavepoint();
    CheckpointMetadata savepoint = metadata.asSavepoint();
    CheckpointAssembler.operators(
        savepoint, directory.toString(), handle -> CheckpointReader.readState(directory, handle));
    CheckpointWriter.writeMetadata(directory, savepoint);
    return StoredOperatorStates.checkpoint(savepoint, directory);
  }

  @Override
  public void discard(long checkpointId) {
    if (Files.exists(directory.resolve(MetadataFormat.FILE_NAME))) {
      return;
    }
    for (String file : writtenFiles) {
      try {
        Files.deleteIfExists(directory.resolve(file));
      } catch (IOException e) {
        LOG.warn("Could not delete {} of an aborted savepoint: {}", file, e.toString());
      }
    }
    writtenFiles.clear();
    maybeDeleteStateFiles();
  }

  /** The files a state backend copied for this savepoint, and their listings. */
  private void maybeDeleteStateFiles() {
    if (!Files.isDirectory(directory)) {
      return;
    }
    try {
      Directories.deleteRecursively(CheckpointLayout.savepointFilesDirectory(directory));
      try (var listings = Files.newDirectoryStream(directory, "*" + StateFileListing.SUFFIX)) {
        for (Path listing : listings) {
          Files.deleteIfExists(listing);
        }
      }
    } catch (IOException e) {
      LOG.warn("Could not delete the state files of an aborted savepoint: {}", e.toString());
    }
  }

  @Override
  public Optional<CompletedCheckpoint> latest(RestoreListener listener) {
    try {
      return Optional.of(CheckpointReader.read(directory));
    } catch (InvalidCheckpointException e) {
      listener.skipped(e.location(), e.reason());
      return Optional.empty();
    }
  }

  @Override
  public String describe() {
    return directory.toString();
  }

  private void refuseExistingSavepoint() throws IOException {
    if (Files.exists(directory.resolve(MetadataFormat.FILE_NAME))) {
      throw new IOException(
          "savepoint directory " + directory + " already holds a savepoint; choose another");
    }
  }
}
