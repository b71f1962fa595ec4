package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32;

/** Loads one checkpoint or savepoint directory and verifies every byte of it. */
final class CheckpointReader {
  private CheckpointReader() {}

  /**
   * Verifies every byte of the checkpoint and returns it with its state left in the files (see
   * {@link StoredOperatorStates}).
   *
   * @throws InvalidCheckpointException naming the directory and the first problem found
   */
  static CompletedCheckpoint read(Path directory) throws InvalidCheckpointException {
    CheckpointMetadata metadata = readMetadata(directory);
    StateFileListings.verify(directory);
    CheckpointAssembler.operators(
        metadata, directory.toString(), handle -> readState(directory, handle));
    return StoredOperatorStates.checkpoint(metadata, directory);
  }

  static CheckpointMetadata readMetadata(Path directory) throws InvalidCheckpointException {
    if (!Files.isDirectory(directory)) {
      throw new InvalidCheckpointException(directory, "directory missing");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(directory.resolve(MetadataFormat.FILE_NAME));
    } catch (NoSuchFileException e) {
      throw new InvalidCheckpointException(directory, MetadataFormat.FILE_NAME + " missing");
    } catch (IOException e) {
      throw new InvalidCheckpointException(
          directory.toString(), MetadataFormat.FILE_NAME + " unreadable: " + e, e);
    }
    try {
      return MetadataFormat.parse(bytes);
    } catch (IOException e) {
      throw new InvalidCheckpointException(directory.toString(), e.getMessage(), e);
    }
  }

  static TaskSnapshot readState(Path directory, SubtaskStateHandle subtask)
      throws InvalidCheckpointException {
    StateHandle handle = subtask.handle();
    Path file = directory.resolve(handle.file()).normalize();
    if (!directory.equals(file.getParent())) {
      throw new InvalidCheckpointException(
          directory, "state file name " + handle.file() + " invalid");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new InvalidCheckpointException(directory, "state file " + handle.file() + " missing");
    } catch (IOException e) {
      throw new InvalidCheckpointException(
          directory.toString(), "state file " + handle.file() + " unreadable: " + e, e);
    }
    if (bytes.length != handle.length()) {
      throw new InvalidCheckpointException(
          directory,
          "length mismatch in "
              + handle.file()
              + ": "
              + bytes.length
              + " bytes, expected "
              + handle.length());
    }
    CRC32 crc = new CRC32();
    crc.update(bytes);
    if (crc.getValue() != handle.checksum()) {
      throw new InvalidCheckpointException(directory, "checksum mismatch in " + handle.file());
    }
    try {
      return TaskSnapshotFormat.read(bytes);
    } catch (IOException e) {
      throw new InvalidCheckpointException(
          directory.toString(), "state file " + handle.file() + " corrupt: " + e.getMessage(), e);
    }
  }
}
