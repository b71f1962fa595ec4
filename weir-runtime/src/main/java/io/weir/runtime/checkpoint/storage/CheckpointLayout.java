package io.weir.runtime.checkpoint.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * Names on disk: {@code <job directory>/chk-<id>/} holds one {@code .state} file per subtask and
 * {@code _metadata}; a savepoint directory holds the same files directly.
 */
public final class CheckpointLayout {
  private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d{1,18})");
  private static final Pattern UNSAFE_CHARACTERS = Pattern.compile("[^A-Za-z0-9._-]+");
  private static final int MAX_READABLE_PART = 60;

  private CheckpointLayout() {}

  public static String checkpointDirectoryName(long checkpointId) {
    return "chk-" + checkpointId;
  }

  /** Where a job's checkpoints keep the state files they share: {@code <job directory>/shared}. */
  public static Path sharedDirectory(Path jobDirectory) {
    return jobDirectory.resolve("shared");
  }

  /** Where a savepoint keeps its own state files: {@code <savepoint>/files}. */
  public static Path savepointFilesDirectory(Path savepointDirectory) {
    return savepointDirectory.resolve("files");
  }

  /** The checkpoint id of a {@code chk-<id>} directory, or empty for any other name. */
  public static OptionalLong checkpointIdOf(Path directory) {
    Path name = directory.getFileName();
    Matcher matcher = CHECKPOINT_DIRECTORY.matcher(name == null ? "" : name.toString());
    return matcher.matches()
        ? OptionalLong.of(Long.parseLong(matcher.group(1)))
        : OptionalLong.empty();
  }

  /**
   * The state file of one subtask. Task ids are chain names such as {@code "Source: A -> Map"}, so
   * the readable part is sanitized and a hash of the exact id keeps two ids apart.
   */
  public static String stateFileName(String taskId, int subtaskIndex) {
    String readable = UNSAFE_CHARACTERS.matcher(taskId).replaceAll("_");
    if (readable.length() > MAX_READABLE_PART) {
      readable = readable.substring(0, MAX_READABLE_PART);
    }
    CRC32 hash = new CRC32();
    hash.update(taskId.getBytes(StandardCharsets.UTF_8));
    return String.format("%s-%08x-%d.state", readable, hash.getValue(), subtaskIndex);
  }

  /** The {@code chk-<id>} directories below {@code jobDirectory}, newest (highest id) first. */
  public static List<Path> checkpointDirectoriesNewestFirst(Path jobDirectory) throws IOException {
    if (!Files.isDirectory(jobDirectory)) {
      return List.of();
    }
    try (Stream<Path> children = Files.list(jobDirectory)) {
      return children
          .filter(Files::isDirectory)
          .filter(child -> checkpointIdOf(child).isPresent())
          .sorted(
              Comparator.comparingLong((Path child) -> checkpointIdOf(child).getAsLong())
                  .reversed())
          .toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
