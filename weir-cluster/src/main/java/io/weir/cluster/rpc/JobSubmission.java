package io.weir.cluster.rpc;

import io.weir.api.datastream.JobConfig;
import io.weir.api.state.StateBackend;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A job as submitted to the cluster: the class whose {@code main} builds it, the jar it comes from,
 * its arguments, and the command line's settings. The job manager and every task manager run the
 * same {@code main} with the same settings, so they all build the same graph with the same operator
 * ids.
 *
 * @param parallelism the default parallelism, or null for the job's own
 * @param checkpointDirectory the checkpoint root, or null for the job's own (or the cluster's)
 * @param restorePath the checkpoint or savepoint to start from ({@code -s}), or null
 * @param fresh start without state, ignoring earlier checkpoints
 * @param jar the jar the job class comes from (shipped with the submission), or null when the class
 *     is on every process's class path
 * @param allowFallback resume past a broken newer checkpoint although two-phase-commit sinks may
 *     commit its output again ({@code --allow-fallback})
 * @param acceptDataLoss go on when a sink proves on recovery that a restored transaction was
 *     aborted ({@code --accept-data-loss})
 * @param stateBackend the name of the state backend ({@code --state-backend}), or null for the
 *     job's own
 * @param unalignedCheckpoints barriers overtake queued records ({@code --unaligned}); false leaves
 *     it to the job
 * @param alignedCheckpointTimeout how long a checkpoint aligns before it switches to unaligned
 *     ({@code --aligned-timeout}), or null for the job's own
 */
public record JobSubmission(
    String jobClass,
    List<String> args,
    Integer parallelism,
    String checkpointDirectory,
    String restorePath,
    boolean fresh,
    JobJar jar,
    boolean allowFallback,
    boolean acceptDataLoss,
    String stateBackend,
    boolean unalignedCheckpoints,
    Duration alignedCheckpointTimeout)
    implements Serializable {

  /** Checks the backend's name on the command line's side, before anything is stored. */
  public JobSubmission {
    args = List.copyOf(args);
    if (stateBackend != null) {
      StateBackend.named(stateBackend);
    }
  }

  /** A submission that leaves the choice of barrier order to the job. */
  public JobSubmission(
      String jobClass,
      List<String> args,
      Integer parallelism,
      String checkpointDirectory,
      String restorePath,
      boolean fresh,
      JobJar jar,
      boolean allowFallback,
      boolean acceptDataLoss,
      String stateBackend) {
    this(
        jobClass,
        args,
        parallelism,
        checkpointDirectory,
        restorePath,
        fresh,
        jar,
        allowFallback,
        acceptDataLoss,
        stateBackend,
        false,
        null);
  }

  /** A submission that leaves the choice of state backend to the job. */
  public JobSubmission(
      String jobClass,
      List<String> args,
      Integer parallelism,
      String checkpointDirectory,
      String restorePath,
      boolean fresh,
      JobJar jar,
      boolean allowFallback,
      boolean acceptDataLoss) {
    this(
        jobClass,
        args,
        parallelism,
        checkpointDirectory,
        restorePath,
        fresh,
        jar,
        allowFallback,
        acceptDataLoss,
        null);
  }

  /** A submission that refuses falling back past a broken checkpoint and accepts no data loss. */
  public JobSubmission(
      String jobClass,
      List<String> args,
      Integer parallelism,
      String checkpointDirectory,
      String restorePath,
      boolean fresh,
      JobJar jar) {
    this(jobClass, args, parallelism, checkpointDirectory, restorePath, fresh, jar, false, false);
  }

  /** A job whose class is on every process's class path. */
  public JobSubmission(
      String jobClass,
      List<String> args,
      Integer parallelism,
      String checkpointDirectory,
      String restorePath,
      boolean fresh) {
    this(jobClass, args, parallelism, checkpointDirectory, restorePath, fresh, null);
  }

  /** The same submission with the checkpoint root the job manager decided on. */
  public JobSubmission withCheckpointDirectory(String directory) {
    return new JobSubmission(
        jobClass,
        args,
        parallelism,
        directory,
        restorePath,
        fresh,
        jar,
        allowFallback,
        acceptDataLoss,
        stateBackend,
        unalignedCheckpoints,
        alignedCheckpointTimeout);
  }

  /** Applies the settings to the job's config, as the command line does for a local run. */
  public void applyTo(JobConfig config) {
    if (parallelism != null) {
      config.parallelism(parallelism);
    }
    if (checkpointDirectory != null) {
      config.checkpointDirectory(Path.of(checkpointDirectory));
    }
    config.restorePath(restorePath == null ? null : Path.of(restorePath));
    config.fresh(fresh);
    config.allowFallback(allowFallback);
    if (acceptDataLoss) {
      config.acceptDataLoss(true);
    }
    if (stateBackend != null) {
      config.stateBackend(StateBackend.named(stateBackend));
    }
    if (unalignedCheckpoints) {
      config.enableUnalignedCheckpoints();
    }
    if (alignedCheckpointTimeout != null) {
      config.alignedCheckpointTimeout(alignedCheckpointTimeout);
    }
  }
}
