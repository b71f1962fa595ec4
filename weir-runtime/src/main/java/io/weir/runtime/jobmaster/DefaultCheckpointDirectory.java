package io.weir.runtime.jobmaster;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.graph.JobGraph;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable checkpoint directory of a job that names none but has a two-phase-commit sink. In
 * memory, its checkpoints die with the process, and with them the record of what its sinks left
 * pending: a rerun could only abort those transactions as lingering (losing what the group's
 * offsets already count) or refuse. Under {@code .weir/checkpoints} a rerun resumes from the newest
 * checkpoint and commits them, as with {@code --checkpoint-dir}.
 */
public final class DefaultCheckpointDirectory {
  /** Relative to the working directory of the process that runs the job. */
  public static final Path DIRECTORY = Path.of(".weir", "checkpoints");

  private static final Logger LOG = LoggerFactory.getLogger(DefaultCheckpointDirectory.class);

  private DefaultCheckpointDirectory() {}

  /**
   * Gives the job of {@code graph} the default directory and says so in one line, when it has a
   * two-phase-commit sink, no checkpoint directory, and did not ask to keep its checkpoints in
   * memory; does nothing otherwise. Called once per job by the runner, before the job's lease and
   * storage are made.
   */
  public static void maybeApply(JobGraph graph) {
    JobConfig config = graph.config();
    List<String> sinks = TwoPhaseCommitSinks.namesIn(graph);
    if (config.checkpointDirectory() != null || config.checkpointsInMemory() || sinks.isEmpty()) {
      return;
    }
    config.checkpointDirectory(DIRECTORY);
    LOG.warn(
        "Job '{}' has the two-phase-commit sink {} and no checkpoint directory: keeping its"
            + " checkpoints in {} (set --checkpoint-dir to choose another)",
        graph.jobName(),
        String.join(", ", sinks),
        DIRECTORY.resolve(graph.jobName()).toAbsolutePath());
  }
}
