package io.weir.runtime.checkpoint.storage;

import io.weir.files.DurableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The savepoints taken for a job, recorded in its checkpoint directory so that a resubmission
 * without {@code -s} can resume from the newest of its checkpoints and savepoints: {@code <job
 * directory>/savepoints/sp-<id>}, each holding the savepoint's absolute path.
 *
 * <p>A record is written (durably) before the savepoint's {@code _metadata}, so a crash in between
 * leaves a record of a savepoint that never completed — which nobody committed anything for.
 * Records are never deleted for completed savepoints, and neither are the savepoints.
 */
public final class SavepointRecords {
  static final String DIRECTORY = "savepoints";
  private static final Pattern RECORD = Pattern.compile("sp-(\\d{1,18})");

  /** A recorded savepoint: its checkpoint id (from the job's id sequence) and directory. */
  public record Recorded(long checkpointId, Path directory) {}

  private SavepointRecords() {}

  /** Records that savepoint {@code checkpointId} of the job goes to {@code savepoint}. */
  public static void record(Path jobDirectory, long checkpointId, Path savepoint)
      throws IOException {
    Path records = jobDirectory.resolve(DIRECTORY);
    Files.createDirectories(records);
    DurableFiles.writeAtomically(
        records.resolve("sp-" + checkpointId),
        savepoint.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Forgets the record of a savepoint that was aborted; a missing one is fine. */
  public static void forget(Path jobDirectory, long checkpointId) throws IOException {
    Files.deleteIfExists(jobDirectory.resolve(DIRECTORY).resolve("sp-" + checkpointId));
  }

  /** The job's recorded savepoints, newest (highest id) first. */
  public static List<Recorded> newestFirst(Path jobDirectory) throws IOException {
    Path records = jobDirectory.resolve(DIRECTORY);
    if (!Files.isDirectory(records)) {
      return List.of();
    }
    List<Recorded> recorded = new ArrayList<>();
    try (Stream<Path> files = Files.list(records)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Matcher matcher = RECORD.matcher(file.getFileName().toString());
        if (matcher.matches()) {
          Path savepoint = Path.of(Files.readString(file, StandardCharsets.UTF_8).strip());
          recorded.add(new Recorded(Long.parseLong(matcher.group(1)), savepoint));
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    recorded.sort(Comparator.comparingLong(Recorded::checkpointId).reversed());
    return recorded;
  }
}
