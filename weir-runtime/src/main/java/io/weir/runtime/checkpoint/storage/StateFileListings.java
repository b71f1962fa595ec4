package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.state.StateFileListing;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which state files outside its own state files a checkpoint needs, read back from the listings
 * that state backends that write files (RocksDB, the heap) write, one per operator and subtask, in
 * the checkpoint's directory ({@link StateFileListing}). The listings are the reference counts of
 * the files a job's checkpoints share: a shared file is deleted once no checkpoint directory left
 * (completed, retained or in progress) lists it. Savepoints list their own copies, so they never
 * hold a shared file.
 */
public final class StateFileListings {
  private static final Logger LOG = LoggerFactory.getLogger(StateFileListings.class);

  private StateFileListings() {}

  /**
   * What the files a checkpoint lists add up to.
   *
   * @param files how many files it needs
   * @param bytes their total size
   * @param newBytes the part of it this checkpoint wrote; the rest it shares with earlier ones
   */
  public record Summary(int files, long bytes, long newBytes) {
    public long sharedBytes() {
      return bytes - newBytes;
    }
  }

  /** Sums the listings in {@code checkpointDirectory}; all zero when it has none. */
  public static Summary summarize(Path checkpointDirectory) throws IOException {
    List<StateFile> files = read(checkpointDirectory);
    long bytes = files.stream().mapToLong(StateFile::length).sum();
    long newBytes =
        files.stream()
            .filter(StateFile::writtenByThisCheckpoint)
            .mapToLong(StateFile::length)
            .sum();
    return new Summary(files.size(), bytes, newBytes);
  }

  /** Every file that the listings in {@code checkpointDirectory} name. */
  public static List<StateFile> read(Path checkpointDirectory) throws IOException {
    List<StateFile> files = new ArrayList<>();
    if (!Files.isDirectory(checkpointDirectory)) {
      return files;
    }
    try (DirectoryStream<Path> listings =
        Files.newDirectoryStream(checkpointDirectory, "*" + StateFileListing.SUFFIX)) {
      for (Path listing : listings) {
        for (String line : Files.readAllLines(listing, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            files.add(parseIn(listing, line));
          }
        }
      }
    }
    return files;
  }

  /**
   * Verifies that every file the checkpoint in {@code directory} lists is there, whole.
   *
   * @throws InvalidCheckpointException naming the first file missing or of the wrong length
   */
  static void verify(Path directory) throws InvalidCheckpointException {
    List<StateFile> files;
    try {
      files = read(directory);
    } catch (IOException | IllegalArgumentException e) {
      throw new InvalidCheckpointException(
          directory.toString(), "unreadable file listing: " + e, e);
    }
    for (StateFile file : files) {
      Path path = directory.resolve(file.relativePath()).normalize();
      long length;
      try {
        length = Files.size(path);
      } catch (IOException missing) {
        throw new InvalidCheckpointException(directory, "state file " + path + " is missing");
      }
      if (length != file.length()) {
        throw new InvalidCheckpointException(
            directory,
            "state file " + path + " has " + length + " bytes, expected " + file.length());
      }
    }
  }

  /**
   * Deletes the files of {@code jobDirectory}'s shared directory that no checkpoint directory left
   * lists. Housekeeping: failures are logged, never thrown.
   */
  public static void deleteUnreferenced(Path jobDirectory) {
    Path shared = CheckpointLayout.sharedDirectory(jobDirectory);
    if (!Files.isDirectory(shared)) {
      return;
    }
    try {
      // Files first, listings second: a writer lists a file before it writes it, so every file
      // seen here is either listed by the time the listings are read or no longer needed.
      List<Path> present;
      try (Stream<Path> files = Files.list(shared)) {
        present = files.map(Path::normalize).toList();
      }
      Set<Path> referenced = new HashSet<>();
      for (Path checkpoint : CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory)) {
        for (StateFile file : read(checkpoint)) {
          referenced.add(checkpoint.resolve(file.relativePath()).normalize());
        }
      }
      for (Path file : present.stream().filter(f -> !referenced.contains(f)).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      LOG.warn("Could not delete unused shared state files in {}: {}", shared, e.toString());
    }
  }

  private static StateFile parseIn(Path listing, String line) {
    try {
      return StateFile.parse(line);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(listing + ": " + e.getMessage(), e);
    }
  }
}
