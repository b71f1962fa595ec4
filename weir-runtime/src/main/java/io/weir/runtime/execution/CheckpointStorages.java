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
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a job's checkpoint storage and what it starts from: the checkpoint or savepoint given
 * with {@code -s}; else, unless told to start fresh, the job's latest completed checkpoint in its
 * checkpoint directory (so restarting without {@code -s} cannot skip it by accident); else nothing.
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
        restore = storage.latest(skipped).orElse(null);
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
