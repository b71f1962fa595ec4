package io.weir.runtime.state;

import io.weir.files.DurableFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The listing a state backend that writes files (RocksDB, the heap) writes of the files one
 * checkpoint needs from one operator and subtask, in the checkpoint's directory beside its {@code
 * .state} files and before the checkpoint completes. The checkpoint storage reads the listings
 * back: to verify a checkpoint when loading it, and as the reference counts of shared files (see
 * {@code StateFileListings}).
 *
 * <p>A listing line: the file's path relative to the checkpoint directory, its length, and whether
 * this checkpoint wrote it ({@code new}) or took it from an earlier one ({@code shared}).
 */
public final class StateFileListing {
  /** The ending of a listing's file name. */
  public static final String SUFFIX = ".files";

  private StateFileListing() {}

  /** One file a checkpoint needs. */
  public record StateFile(String relativePath, long length, boolean writtenByThisCheckpoint) {
    String line() {
      return relativePath + "\t" + length + "\t" + (writtenByThisCheckpoint ? "new" : "shared");
    }

    /**
     * @throws IllegalArgumentException when {@code line} is not a listing line
     */
    public static StateFile parse(String line) {
      String[] parts = line.split("\t");
      if (parts.length != 3) {
        throw new IllegalArgumentException("malformed line '" + line + "'");
      }
      return new StateFile(parts[0], Long.parseLong(parts[1]), parts[2].equals("new"));
    }
  }

  /** Writes (durably, atomically) the listing of {@code owner} into {@code checkpointDirectory}. */
  public static void write(Path checkpointDirectory, String owner, List<StateFile> files)
      throws IOException {
    Files.createDirectories(checkpointDirectory);
    StringBuilder text = new StringBuilder();
    files.forEach(file -> text.append(file.line()).append('\n'));
    DurableFiles.writeAtomically(
        checkpointDirectory.resolve(owner + SUFFIX),
        text.toString().getBytes(StandardCharsets.UTF_8));
  }
}
