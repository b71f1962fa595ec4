package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ClientMessages;
import io.weir.cluster.rpc.ClientMessages.RequestFailed;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.jobmaster.JobState;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Answers the command line's requests; runs on a request thread, so it may block. */
final class ClientRequests {
  private static final long SAVEPOINT_TIMEOUT_SECONDS = 120;

  private final JobManager jobManager;

  ClientRequests(JobManager jobManager) {
    this.jobManager = jobManager;
  }

  Serializable answer(ClientMessages.Request request) {
    try {
      if (request instanceof ClientMessages.Submit submit) {
        return jobManager.submit(submit.submission(), submit.jar()).status();
      } else if (request instanceof ClientMessages.ListJobs) {
        return new ClientMessages.JobList(
            jobManager.jobs().stream().map(ClusterJob::status).toList());
      } else if (request instanceof ClientMessages.GetJob get) {
        return job(get.jobId()).status();
      } else if (request instanceof ClientMessages.TakeSavepoint savepoint) {
        return savepoint(job(savepoint.jobId()), savepoint.directory());
      } else if (request instanceof ClientMessages.StopWithSavepoint stop) {
        return stop(job(stop.jobId()), stop.directory(), JobState.FINISHED);
      } else if (request instanceof ClientMessages.Cancel cancel) {
        return cancel(job(cancel.jobId()), cancel.savepointDirectory());
      } else if (request instanceof ClientMessages.ListMembers) {
        return jobManager.members();
      } else if (request instanceof ClientMessages.ListCheckpoints list) {
        return checkpoints(job(list.jobId()));
      }
      return new RequestFailed("Unknown request " + request);
    } catch (Exception e) {
      return new RequestFailed(e.getMessage() == null ? e.toString() : e.getMessage());
    }
  }

  private ClusterJob job(String jobId) {
    ClusterJob job = jobManager.job(jobId);
    if (job == null) {
      throw new IllegalArgumentException("No job with id " + jobId + " on this job manager");
    }
    return job;
  }

  private Serializable savepoint(ClusterJob job, String directory) throws Exception {
    Path path;
    try {
      path =
          job.triggerSavepoint(Path.of(directory).toAbsolutePath())
              .get(SAVEPOINT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(
          "Savepoint of job " + job.jobId() + " failed: " + e.getCause().getMessage(), e);
    }
    return new ClientMessages.SavepointTaken(path.toString());
  }

  /**
   * Answers once the job has ended with nothing pending: the savepoint completed and every subtask
   * processed its notification (its sinks committed) before it ended.
   */
  private Serializable stop(ClusterJob job, String directory, JobState endState) throws Exception {
    Path path;
    try {
      path =
          job.stopWithSavepoint(Path.of(directory).toAbsolutePath(), endState)
              .get(SAVEPOINT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(
          "Stopping job " + job.jobId() + " with a savepoint failed: " + e.getCause().getMessage(),
          e);
    }
    return new ClientMessages.SavepointTaken(path.toString());
  }

  /** With a savepoint directory: as a stop with savepoint, but the job ends CANCELED. */
  private Serializable cancel(ClusterJob job, String savepointDirectory) throws Exception {
    if (savepointDirectory != null) {
      return stop(job, savepointDirectory, JobState.CANCELED);
    }
    job.cancel();
    return job.status();
  }

  private Serializable checkpoints(ClusterJob job) throws IOException {
    Path directory = job.checkpointDirectory();
    List<Path> retained =
        directory != null && Files.isDirectory(directory)
            ? CheckpointLayout.checkpointDirectoriesNewestFirst(directory)
            : List.of();
    return new ClientMessages.CheckpointList(
        new CheckpointHistoryLines(job.graph()).lines(job.checkpointHistory(), retained));
  }
}
