package io.weir.runtime.checkpoint.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a job could resume from without {@code -s}: its retained {@code chk-<id>} directories and
 * the savepoints recorded for it ({@link SavepointRecords}), newest (highest checkpoint id) first.
 * Checkpoints and savepoints share one id sequence, so the highest id is the newest state.
 */
public final class ResumeCandidates {
  /**
   * One checkpoint or savepoint directory, not yet verified.
   *
   * @param checkpointId the id from its directory name or record
   */
  public record Candidate(long checkpointId, Path directory, boolean savepoint) {
    /** "checkpoint DIR" or "savepoint DIR", for log lines. */
    public String kindAndDirectory() {
      return (savepoint ? "savepoint " : "checkpoint ") + directory;
    }

    /** "checkpoint 7 at DIR" or "savepoint DIR (checkpoint id 7)", for messages. */
    public String describe() {
      return savepoint
          ? "savepoint " + directory + " (checkpoint id " + checkpointId + ")"
          : "checkpoint " + checkpointId + " at " + directory;
    }

    /**
     * False only when it provably never completed: its directory exists without {@code _metadata}
     * (a crash mid-checkpoint, or an aborted savepoint), so no sink committed anything for it. A
     * broken one that may have completed may have had its transactions committed.
     */
    public boolean mayHaveCompleted() {
      return !Files.isDirectory(directory)
          || Files.exists(directory.resolve(MetadataFormat.FILE_NAME));
    }
  }

  private ResumeCandidates() {}

  /** Every candidate of the job whose checkpoints are in {@code jobDirectory}, newest first. */
  public static List<Candidate> newestFirst(Path jobDirectory) throws IOException {
    List<Candidate> candidates = new ArrayList<>();
    for (Path directory : CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory)) {
      candidates.add(
          new Candidate(CheckpointLayout.checkpointIdOf(directory).getAsLong(), directory, false));
    }
    for (SavepointRecords.Recorded recorded : SavepointRecords.newestFirst(jobDirectory)) {
      candidates.add(new Candidate(recorded.checkpointId(), recorded.directory(), true));
    }
    candidates.sort(Comparator.comparingLong(Candidate::checkpointId).reversed());
    return candidates;
  }
}
