package io.weir.runtime.checkpoint.storage;

import io.weir.files.DurableFiles;
import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.TaskSnapshot;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/** Writes the files of one checkpoint or savepoint directory, durably, metadata last. */
public final class CheckpointWriter {
  private CheckpointWriter() {}

  /**
   * Writes and fsyncs one subtask's state file and its directory entry; creates the directory on
   * first use. Each subtask makes its own entry durable, in parallel with the others, so that
   * completing the checkpoint need not do it for all of them while the sinks wait to commit.
   */
  public static StateHandle writeState(
      Path directory, String taskId, int subtaskIndex, TaskSnapshot snapshot) throws IOException {
    createDirectoryDurably(directory);
    String fileName = CheckpointLayout.stateFileName(taskId, subtaskIndex);
    try (FileChannel channel =
        FileChannel.open(
            directory.resolve(fileName),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      CheckedOutputStream checked =
          new CheckedOutputStream(
              new BufferedOutputStream(Channels.newOutputStream(channel)), new CRC32());
      DataOutputStream out = new DataOutputStream(checked);
      TaskSnapshotFormat.write(snapshot, out);
      out.flush();
      channel.force(true);
      StateHandle handle =
          new StateHandle(fileName, channel.size(), checked.getChecksum().getValue());
      DurableFiles.forceDirectory(directory);
      return handle;
    }
  }

  /**
   * Writes {@code _metadata} atomically: from this moment on the checkpoint exists. The state files
   * and their directory entries are durable already ({@link #writeState}).
   */
  static void writeMetadata(Path directory, CheckpointMetadata metadata) throws IOException {
    createDirectoryDurably(directory);
    DurableFiles.writeAtomically(
        directory.resolve(MetadataFormat.FILE_NAME), MetadataFormat.toBytes(metadata));
  }

  private static void createDirectoryDurably(Path directory) throws IOException {
    if (Files.isDirectory(directory)) {
      return;
    }
    Files.createDirectories(directory);
    DurableFiles.forceDirectory(directory.toAbsolutePath().getParent());
  }
}
