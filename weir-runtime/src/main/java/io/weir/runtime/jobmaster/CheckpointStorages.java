package io.weir.runtime.jobmaster;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutionException;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.assignment.CheckpointCompatibility;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.FileCheckpointStorage;
import io.weir.runtime.checkpoint.storage.MemoryCheckpointStorage;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import io.weir.runtime.checkpoint.storage.ResumeCandidates;
import io.weir.runtime.graph.JobGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a job's checkpoint storage and what it starts from: the checkpoint or savepoint given
 * with {@code -s}; else, unless told to start fresh, the newest of the job's completed checkpoints
 * in its checkpoint directory and the savepoints recorded there (so restarting without {@code -s}
 * cannot skip either by accident); else nothing.
 *
 * <p>A broken newer one is skipped only when that cannot duplicate output: when it provably never
 * completed (no {@code _metadata}), or when the job has no two-phase-commit sink (with a warning).
 * Otherwise its sinks may have committed its transactions already, and the older one would commit
 * them again, so the job fails with one line naming both and the choices ({@code -s} the older one,
 * {@code --allow-fallback}). When every one is broken the job fails rather than silently starting
 * from scratch.
 */
public final class CheckpointStorages {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStorages.class);

  /**
   * What a job starts from, and the line that says so.
   *
   * @param checkpoint the checkpoint or savepoint, or null to start from scratch
   * @param description "resuming from ...", "restoring from ..." or "starting from the group's
   *     offsets, reconciled with ...", or null from scratch
   * @param reconcileWith on a start without state (from the group's offsets, or {@code --fresh}):
   *     the newest checkpoint or savepoint of the job's checkpoint directory, whose pending
   *     transactions the recovery step commits and whose source positions the sources start no
   *     earlier than; else null
   */
  public record InitialRestore(
      CompletedCheckpoint checkpoint, String description, CompletedCheckpoint reconcileWith) {
    static final InitialRestore NONE = new InitialRestore(null, null, null);

    InitialRestore(CompletedCheckpoint checkpoint, String description) {
      this(checkpoint, description, null);
    }
  }

  /**
   * A checkpoint or savepoint skipped because it is broken, and why.
   *
   * @param what its description for the one-line error
   * @param location "checkpoint DIR" or "savepoint DIR", for the warning
   */
  private record Broken(String what, String location, String reason) {}

  private CheckpointStorages() {}

  /**
   * The lease of the job's checkpoint directory when {@code fencing} asks for one and the job keeps
   * its checkpoints in a directory; taken before anything reads or changes them.
   *
   * @throws JobExecutionException with one line naming the running process when another holds it
   */
  public static Optional<CheckpointDirectoryLease> maybeLease(
      JobConfig config, String jobName, CheckpointFencing fencing, Clock clock)
      throws JobExecutionException {
    if (fencing != CheckpointFencing.LEASE || config.checkpointDirectory() == null) {
      return Optional.empty();
    }
    return Optional.of(
        CheckpointDirectoryLease.acquire(
            config.checkpointDirectory().resolve(jobName), jobName, clock));
  }

  public static CheckpointStorage forJob(JobConfig config, String jobName) {
    if (config.checkpointDirectory() == null) {
      return new MemoryCheckpointStorage(config.retainedCheckpoints());
    }
    return FileCheckpointStorage.forJob(
        config.checkpointDirectory(), jobName, config.retainedCheckpoints());
  }

  /**
   * The first checkpoint id of a job: ids only grow, after the restored one and after every one the
   * job's directory still holds or recorded (a fresh start must not write a checkpoint older than
   * one that is already there), broken ones included (their id may already name a transaction or
   * part file of a sink).
   */
  public static long firstCheckpointId(
      JobConfig config, String jobName, CompletedCheckpoint restore) throws JobExecutionException {
    long last = restore == null ? 0 : restore.checkpointId();
    if (config.checkpointDirectory() != null) {
      Path jobDirectory = config.checkpointDirectory().resolve(jobName);
      try {
        for (ResumeCandidates.Candidate candidate : ResumeCandidates.newestFirst(jobDirectory)) {
          last = Math.max(last, candidate.checkpointId());
        }
      } catch (IOException e) {
        throw new JobExecutionException("Cannot read " + jobDirectory + ": " + e, e);
      }
    }
    return last + 1;
  }

  /**
   * Finds what the job of {@code graph} starts from and checks that it fits the job's operators.
   *
   * @throws JobExecutionException with one line for the user
   */
  public static InitialRestore initialRestore(
      JobGraph graph, CheckpointStorage storage, List<OperatorInfo> operators)
      throws JobExecutionException {
    JobConfig config = graph.config();
    InitialRestore restore;
    try {
      if (config.restorePath() != null) {
        restore = restoreGiven(graph, config.restorePath());
      } else if (!config.fresh() && config.checkpointDirectory() != null) {
        restore = resumeNewest(graph, storage);
      } else if (config.checkpointDirectory() != null) {
        restore = reconcileNewest(graph, storage);
      } else {
        restore = InitialRestore.NONE;
      }
    } catch (IOException e) {
      throw new JobExecutionException(e.getMessage(), e);
    }
    if (restore.checkpoint() != null) {
      try {
        CheckpointCompatibility.check(restore.checkpoint(), operators, false);
      } catch (IllegalStateException e) {
        throw new JobExecutionException(e.getMessage(), e);
      }
      LOG.warn("Job '{}' is {}", graph.jobName(), restore.description());
    }
    return restore;
  }

  /**
   * A start without state with a checkpoint directory at hand: the newest checkpoint or savepoint
   * there, to reconcile the group's offsets with. When none can be read, nothing is reconciled and
   * the start goes on as before, saying so.
   */
  private static InitialRestore reconcileNewest(JobGraph graph, CheckpointStorage storage)
      throws IOException {
    InitialRestore newest;
    try {
      newest = resumeNewest(graph, storage);
    } catch (JobExecutionException e) {
      LOG.warn(
          "Job '{}' starts without state and reconciles nothing: {}",
          graph.jobName(),
          e.getMessage());
      return InitialRestore.NONE;
    }
    if (newest.checkpoint() == null) {
      return InitialRestore.NONE;
    }
    return new InitialRestore(
        null,
        "starting without state from the group's offsets, reconciled with "
            + describe(newest.checkpoint()),
        newest.checkpoint());
  }

  /** {@code -s PATH}: exactly that checkpoint, or the newest valid one of a job directory. */
  private static InitialRestore restoreGiven(JobGraph graph, Path path)
      throws IOException, JobExecutionException {
    List<Broken> broken = new ArrayList<>();
    CompletedCheckpoint restore =
        CheckpointLoader.load(
            path,
            (location, reason) -> {
              if (Files.exists(Path.of(location).resolve(MetadataFormat.FILE_NAME))) {
                broken.add(new Broken("checkpoint " + location, "checkpoint " + location, reason));
              }
            });
    String what = describe(restore);
    maybeRefuseFallback(graph, broken, restore, what);
    return new InitialRestore(restore, "restoring from " + what);
  }

  private static InitialRestore resumeNewest(JobGraph graph, CheckpointStorage storage)
      throws IOException, JobExecutionException {
    Path jobDirectory = graph.config().checkpointDirectory().resolve(graph.jobName());
    List<ResumeCandidates.Candidate> candidates = ResumeCandidates.newestFirst(jobDirectory);
    List<Broken> broken = new ArrayList<>();
    for (ResumeCandidates.Candidate candidate : candidates) {
      CompletedCheckpoint loaded;
      try {
        loaded = CheckpointLoader.loadExactly(candidate.directory());
      } catch (IOException e) {
        String reason =
            e instanceof io.weir.runtime.checkpoint.storage.InvalidCheckpointException invalid
                ? invalid.reason()
                : e.toString();
        if (candidate.mayHaveCompleted()) {
          broken.add(new Broken(candidate.describe(), candidate.kindAndDirectory(), reason));
        } else {
          LOG.warn(
              "Skipping {}: {}; it never completed, falling back to an older one",
              candidate.kindAndDirectory(),
              reason);
        }
        continue;
      }
      String what = resumeDescription(candidate, candidates);
      maybeRefuseFallback(graph, broken, loaded, what);
      return new InitialRestore(
          loaded, "resuming from " + what + " (use --fresh to start from scratch)");
    }
    if (!broken.isEmpty()) {
      // Starting from scratch would redo output the broken checkpoints' sinks committed.
      throw new JobExecutionException(
          "No valid checkpoint to resume job '"
              + graph.jobName()
              + "' from in "
              + storage.describe()
              + ": "
              + String.join(
                  ", ", broken.stream().map(b -> b.what() + " (" + b.reason() + ")").toList())
              + "; use --fresh to start from scratch or -s to restore a given one");
    }
    return InitialRestore.NONE;
  }

  /** "its latest completed checkpoint N at DIR" or "savepoint DIR (checkpoint id N, newer ...)". */
  private static String resumeDescription(
      ResumeCandidates.Candidate chosen, List<ResumeCandidates.Candidate> candidates) {
    if (!chosen.savepoint()) {
      return "its latest completed checkpoint "
          + chosen.checkpointId()
          + " at "
          + chosen.directory();
    }
    String older =
        candidates.stream()
            .filter(c -> !c.savepoint() && c.checkpointId() < chosen.checkpointId())
            .findFirst()
            .map(c -> "newer than checkpoint " + c.checkpointId())
            .orElse("no checkpoint is newer");
    return "savepoint "
        + chosen.directory()
        + " (checkpoint id "
        + chosen.checkpointId()
        + ", "
        + older
        + ")";
  }

  private static String describe(CompletedCheckpoint checkpoint) {
    return (checkpoint.savepoint() ? "savepoint " : "checkpoint ")
        + checkpoint.checkpointId()
        + " at "
        + checkpoint.location();
  }

  /**
   * Falling back past a broken checkpoint that may have completed can commit its output again
   * through a two-phase-commit sink: refused unless the job allows it. Without such a sink it is
   * only a warning.
   */
  private static void maybeRefuseFallback(
      JobGraph graph, List<Broken> broken, CompletedCheckpoint chosen, String chosenDescription)
      throws JobExecutionException {
    if (broken.isEmpty()) {
      return;
    }
    Broken newest = broken.get(0);
    List<String> sinks = TwoPhaseCommitSinks.namesIn(graph);
    if (sinks.isEmpty() || graph.config().allowFallback()) {
      broken.forEach(
          b ->
              LOG.warn(
                  "Skipping {}: {}; falling back to {}",
                  b.location(),
                  b.reason(),
                  chosenDescription));
      return;
    }
    throw new JobExecutionException(
        "Job '"
            + graph.jobName()
            + "': the newest "
            + newest.what()
            + " is broken ("
            + newest.reason()
            + (broken.size() > 1 ? "; " + (broken.size() - 1) + " more broken" : "")
            + ") and its sink "
            + String.join(", ", sinks)
            + " may have committed its output; falling back to "
            + chosenDescription
            + " could commit that output again: restore it explicitly with -s "
            + chosen.location()
            + ", or allow the fallback with --allow-fallback");
  }
}
