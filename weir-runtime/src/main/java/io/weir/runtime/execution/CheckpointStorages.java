package io.weir.runtime.execution;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutionException;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.assignment.CheckpointCompatibility;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.FileCheckpointStorage;
import io.weir.runtime.checkpoint.storage.MemoryCheckpointStorage;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a job's checkpoint storage and what it starts from: the checkpoint or savepoint given
 * with {@code -s}; else, unless told to start fresh, the job's latest completed checkpoint in its
 * checkpoint directory (so restarting without {@code -s} cannot skip it by accident); else nothing.
 * Broken newer checkpoints are skipped with a warning; when every checkpoint there is broken (one
 * with a damaged {@code _metadata}, not one that never completed) the job fails rather than
 * silently starting from scratch.
 */
public final class CheckpointStorages {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStorages.class);

  private CheckpointStorages() {}

  public static CheckpointStorage forJob(JobConfig config, String jobName) {
    if (config.checkpointDirectory() == null) {
      return new MemoryCheckpointStorage(config.retainedCheckpoints());
    }
    return FileCheckpointStorage.forJob(
        config.checkpointDirectory(), jobName, config.retainedCheckpoints());
  }

  public static CompletedCheckpoint initialRestore(
      JobConfig config, CheckpointStorage storage, String jobName, List<OperatorInfo> operators)
      throws JobExecutionException {
    CheckpointStorage.RestoreListener skipped =
        (location, reason) ->
            LOG.warn("Skipping checkpoint {}: {}; falling back to an older one", location, reason);
    CompletedCheckpoint restore;
    try {
      if (config.restorePath() != null) {
        restore = CheckpointLoader.load(config.restorePath(), skipped);
        LOG.info(
            "Restoring job '{}' from checkpoint {} at {}",
            jobName,
            restore.checkpointId(),
            restore.location());
      } else if (!config.fresh() && config.checkpointDirectory() != null) {
        List<String> broken = new ArrayList<>();
        restore =
            storage
                .latest(
                    (location, reason) -> {
                      skipped.skipped(location, reason);
                      // Without _metadata it never completed (a crash mid-checkpoint): no sink
                      // committed anything for it, so starting from scratch stays correct.
                      if (Files.exists(Path.of(location).resolve(MetadataFormat.FILE_NAME))) {
                        broken.add(location + " (" + reason + ")");
                      }
                    })
                .orElse(null);
        if (restore == null && !broken.isEmpty()) {
          // Starting from scratch would redo output the broken checkpoints' sinks committed.
          throw new JobExecutionException(
              "No valid checkpoint to resume job '"
                  + jobName
                  + "' from in "
                  + storage.describe()
                  + ": "
                  + String.join(", ", broken)
                  + "; use --fresh to start from scratch or -s to restore a given one");
        }
        if (restore != null) {
          LOG.warn(
              "Resuming job '{}' from its latest completed checkpoint {} at {} (use --fresh to"
                  + " start from scratch)",
              jobName,
              restore.checkpointId(),
              restore.location());
        }
      } else {
        restore = null;
      }
    } catch (IOException e) {
      throw new JobExecutionException(e.getMessage(), e);
    }
    if (restore != null) {
      try {
        CheckpointCompatibility.check(restore, operators, false);
      } catch (IllegalStateException e) {
        throw new JobExecutionException(e.getMessage(), e);
      }
    }
    return restore;
  }
}
