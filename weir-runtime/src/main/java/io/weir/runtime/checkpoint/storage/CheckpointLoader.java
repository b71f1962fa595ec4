package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointStorage.RestoreListener;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Loads what a user points at to restore from ({@code -s PATH}): a {@code chk-<id>} directory, a
 * savepoint directory, its {@code _metadata} file, or a job's checkpoint directory (then its newest
 * valid checkpoint, reporting the broken newer ones it skips).
 */
public final class CheckpointLoader {
  private CheckpointLoader() {}

  /** Loads {@code path}, ignoring skipped checkpoints of a job directory. */
  public static CompletedCheckpoint load(Path path) throws InvalidCheckpointException {
    return load(path, (location, reason) -> {});
  }

  /**
   * Loads {@code path} and verifies its metadata and every state file.
   *
   * @param listener told about each broken checkpoint skipped in a job directory
   * @throws InvalidCheckpointException one line naming the path and why it cannot be restored
   */
  public static CompletedCheckpoint load(Path path, RestoreListener listener)
      throws InvalidCheckpointException {
    Path directory =
        path.getFileName() != null
                && path.getFileName().toString().equals(MetadataFormat.FILE_NAME)
                && Files.isRegularFile(path)
            ? path.toAbsolutePath().getParent()
            : path;
    if (!Files.exists(directory)) {
      throw new InvalidCheckpointException(directory, "no such directory");
    }
    if (!Files.isDirectory(directory)) {
      throw new InvalidCheckpointException(directory, "not a directory");
    }
    if (Files.exists(directory.resolve(MetadataFormat.FILE_NAME))
        || CheckpointLayout.checkpointIdOf(directory).isPresent()) {
      return CheckpointReader.read(directory);
    }
    List<Path> checkpoints = checkpointDirectories(directory);
    if (checkpoints.isEmpty()) {
      throw new InvalidCheckpointException(
          directory, MetadataFormat.FILE_NAME + " missing and no chk-* checkpoint directories");
    }
    return newestValid(checkpoints, listener)
        .orElseThrow(
            () ->
                new InvalidCheckpointException(
                    directory,
                    "none of its " + checkpoints.size() + " checkpoint directories is valid"));
  }

  /**
   * Loads exactly the checkpoint or savepoint in {@code directory} and verifies it, without looking
   * for others below it.
   */
  public static CompletedCheckpoint loadExactly(Path directory) throws InvalidCheckpointException {
    return CheckpointReader.read(directory);
  }

  /** The newest valid checkpoint of a job directory; empty when there is none. */
  static Optional<CompletedCheckpoint> newestValid(Path jobDirectory, RestoreListener listener)
      throws IOException {
    return newestValid(CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory), listener);
  }

  private static Optional<CompletedCheckpoint> newestValid(
      List<Path> newestFirst, RestoreListener listener) {
    for (Path directory : newestFirst) {
      try {
        return Optional.of(CheckpointReader.read(directory));
      } catch (InvalidCheckpointException e) {
        listener.skipped(e.location(), e.reason());
      }
    }
    return Optional.empty();
  }

  private static List<Path> checkpointDirectories(Path jobDirectory)
      throws InvalidCheckpointException {
    try {
      return CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory);
    } catch (IOException e) {
      throw new InvalidCheckpointException(jobDirectory.toString(), "unreadable: " + e, e);
    }
  }
}
