package io.weir.runtime.execution;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.graph.JobGraph;

/** Chooses a job's checkpoint storage and what it starts from. */
final class CheckpointStorages {
  private CheckpointStorages() {}

  static CheckpointStorage forJob(JobConfig config, String jobName) {
    return new InterimMemoryStorage(config.retainedCheckpoints());
  }

  static CompletedCheckpoint initialRestore(JobConfig config, JobGraph graph) {
    if (config.restorePath() != null) {
      throw new IllegalStateException("Restoring from a path comes with the storage package");
    }
    return null;
  }
}
