package io.weir.cluster.rpc;

import java.io.Serializable;
import java.util.List;

/** Requests of the command line to the job manager, one per connection, and their answers. */
public final class ClientMessages {
  private ClientMessages() {}

  /** A marker for the requests. */
  public sealed interface Request extends Serializable
      permits Submit,
          ListJobs,
          GetJob,
          Cancel,
          TakeSavepoint,
          StopWithSavepoint,
          ListCheckpoints,
          ListMembers {}

  /**
   * @param jar the bytes of the submission's jar, or null when it names none
   */
  public record Submit(JobSubmission submission, byte[] jar) implements Request {
    public Submit(JobSubmission submission) {
      this(submission, null);
    }
  }

  public record ListJobs() implements Request {}

  public record GetJob(String jobId) implements Request {}

  /**
   * @param savepointDirectory stop with a savepoint there (answered once the job ended with every
   *     sink committed), or null to cancel at once
   */
  public record Cancel(String jobId, String savepointDirectory) implements Request {}

  public record TakeSavepoint(String jobId, String directory) implements Request {}

  /** Answered with {@link SavepointTaken} once the job ended FINISHED with nothing pending. */
  public record StopWithSavepoint(String jobId, String directory) implements Request {}

  public record ListCheckpoints(String jobId) implements Request {}

  /** Answered with {@link Members}: the job manager asked and its live task managers. */
  public record ListMembers() implements Request {}

  // ---- answers

  /**
   * @param state CREATED, RUNNING, RESTARTING, FINISHED, FAILED or CANCELED
   * @param lastCheckpointId the last completed checkpoint of the job, or -1
   * @param lastCheckpointPath its directory, or null
   * @param message why it failed, or what it resumed from; may be null
   * @param recordsIn records its sources read in the current attempt, as of the last heartbeats
   * @param recordsOut records its sinks wrote in the current attempt, likewise
   * @param deadLetterRecords records its sources sent to a dead-letter topic in the current
   *     attempt, likewise
   */
  public record JobStatus(
      String jobId,
      String jobName,
      String state,
      long startMillis,
      long lastCheckpointId,
      String lastCheckpointPath,
      int restarts,
      String message,
      long recordsIn,
      long recordsOut,
      long deadLetterRecords,
      List<String> acceptedDataLoss)
      implements Serializable {
    // acceptedDataLoss: the DATA LOSS lines of transactions the job went on without because it
    // accepts data loss (--accept-data-loss); empty when nothing was lost.
    public JobStatus {
      acceptedDataLoss = List.copyOf(acceptedDataLoss);
    }

    public boolean isTerminal() {
      return state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELED");
    }
  }

  public record JobList(List<JobStatus> jobs) implements Serializable {}

  /**
   * @param path a savepoint's directory
   */
  public record SavepointTaken(String path) implements Serializable {}

  /** One line per retained checkpoint of the job, newest first. */
  public record CheckpointList(List<String> lines) implements Serializable {}

  /** A job manager (its address and pid) and the task managers registered with it. */
  public record Members(HostAndPort jobManager, long pid, List<TaskManagerMember> taskManagers)
      implements Serializable {
    public Members {
      taskManagers = List.copyOf(taskManagers);
    }
  }

  /**
   * A task manager as its job manager knows it.
   *
   * @param slotsInUse slots that run a subtask of some running job
   */
  public record TaskManagerMember(
      String id, HostAndPort dataAddress, long pid, int slots, int slotsInUse)
      implements Serializable {}

  /** The request could not be done; the reason is a line for the user. */
  public record RequestFailed(String reason) implements Serializable {}
}
