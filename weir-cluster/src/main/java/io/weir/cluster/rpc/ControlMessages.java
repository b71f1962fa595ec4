package io.weir.cluster.rpc;

import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.monitor.SubtaskFigures;
import io.weir.runtime.startup.BesideStartStatus;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the job manager and the task managers tell each other on a task manager's control
 * connection. Task managers register, heartbeat and report their tasks; the job manager deploys,
 * starts, checkpoints, terminates and cancels them.
 */
public final class ControlMessages {
  private ControlMessages() {}

  // ---- task manager -> job manager

  /**
   * A task manager offers its slots; the data address is where other task managers send records.
   */
  public record RegisterTaskManager(
      String taskManagerId, int slots, HostAndPort dataAddress, long pid) implements Serializable {}

  /**
   * A task manager is alive; with the record counts of the attempts it runs, for progress, and when
   * it sent this on its own monotonic clock ({@code System.nanoTime}), which the answer echoes.
   */
  public record Heartbeat(String taskManagerId, List<AttemptProgress> progress, long sentNanos)
      implements Serializable {
    public Heartbeat {
      progress = List.copyOf(progress);
    }

    /** What each attempt's subtasks on the sender may still do beside their start. */
    public Map<AttemptId, BesideStartStatus> besideStartByAttempt() {
      Map<AttemptId, BesideStartStatus> byAttempt = new HashMap<>();
      progress.forEach(attempt -> byAttempt.put(attempt.attempt(), attempt.besideStart()));
      return byAttempt;
    }
  }

  /**
   * The job manager's answer to a heartbeat, with its heartbeat timeout: a task manager that gets
   * no answer for that long stops its tasks, as the job manager will have given them up. It echoes
   * the heartbeat's send time: the task manager's lease runs from there (see TaskManagerLease).
   */
  public record HeartbeatAnswer(long timeoutMillis, long heartbeatSentNanos)
      implements Serializable {}

  /**
   * Records read by the sources and written by the sinks of one attempt on one task manager, and
   * records its sources sent to a dead-letter topic, and the figures of each of its subtasks there
   * (what the dashboard shows of a local run's); and what its subtasks there may still do beside
   * their start, read before the heartbeat's send time: once a heartbeat said QUIET, nothing of the
   * attempt on that task manager reaches an external system beside a start (a sink's fence), so a
   * job manager that loses it need not wait out its lease for that.
   */
  public record AttemptProgress(
      AttemptId attempt,
      long recordsIn,
      long recordsOut,
      long deadLetterRecords,
      List<SubtaskFigures> subtasks,
      BesideStartStatus besideStart)
      implements Serializable {
    public AttemptProgress {
      subtasks = List.copyOf(subtasks);
    }
  }

  /** The subtasks of a deployment were created (or could not be: {@code error} is not null). */
  public record TasksDeployed(AttemptId attempt, String taskManagerId, String error)
      implements Serializable {}

  /**
   * One subtask's news: running, its sink's first record, data finished, terminated or failed (then
   * with a cause).
   */
  public record TaskReport(
      AttemptId attempt, String vertexId, int subtask, TaskReport.Kind kind, String cause)
      implements Serializable {
    public enum Kind {
      RUNNING,
      /**
       * A sink of the subtask received its first record of the attempt: the job manager makes the
       * next checkpoint due at once, so the first output (after a failover, the first new output)
       * is committed without waiting out the checkpoint interval.
       */
      SINK_OUTPUT_STARTED,
      DATA_FINISHED,
      TERMINATED,
      FAILED,
      /** Failed in a way that restarting cannot cure; see SuppressRestartsException. */
      FAILED_FOR_GOOD
    }
  }

  /**
   * Every subtask of the attempt on this task manager has ended after a {@link CancelTasks}, and so
   * has the work beside their start (a sink's fence): nothing of the attempt reaches an external
   * system from here any more. Sent also when the attempt was never deployed here or had ended
   * already. The job manager deploys the job's next attempt only after it.
   */
  public record TasksEnded(AttemptId attempt, String taskManagerId) implements Serializable {}

  public record CheckpointAcknowledged(
      AttemptId attempt,
      long checkpointId,
      String vertexId,
      int subtask,
      String file,
      long length,
      long checksum)
      implements Serializable {}

  public record CheckpointDeclined(
      AttemptId attempt, long checkpointId, String vertexId, int subtask, String reason)
      implements Serializable {}

  // ---- job manager -> task manager

  /** Where one subtask runs: which task manager, reachable at which data address. */
  public record SubtaskPlacement(
      String vertexId, int subtask, String taskManagerId, HostAndPort dataAddress)
      implements Serializable {}

  /**
   * Creates (without starting) the subtasks placed on the receiving task manager.
   *
   * @param restorePath the checkpoint all subtasks restore from, or null for none
   * @param placements every subtask of the job, not only the receiver's
   * @param jar the bytes of the submission's jar, or null when it names none or the receiver
   *     already holds it (from an earlier deployment)
   * @param enumeratedSources the source tasks (vertex ids) whose readers get their splits by {@link
   *     AssignSplits} from an enumerator on the job manager; the others find their own
   */
  public record DeployTasks(
      AttemptId attempt,
      JobSubmission submission,
      String restorePath,
      List<SubtaskPlacement> placements,
      byte[] jar,
      Set<String> enumeratedSources)
      implements Serializable {
    public DeployTasks {
      enumeratedSources = Set.copyOf(enumeratedSources);
    }
  }

  /** Every task manager deployed its subtasks: start them. */
  public record StartTasks(AttemptId attempt) implements Serializable {}

  /**
   * @param savepointDirectory where this checkpoint goes instead, or null for a checkpoint
   * @param kind a checkpoint, a savepoint, or a stop-with-savepoint (sources emit nothing after it)
   */
  public record TriggerCheckpoint(
      AttemptId attempt,
      long checkpointId,
      long timestamp,
      String savepointDirectory,
      CheckpointKind kind)
      implements Serializable {}

  /**
   * Splits a source's enumerator assigned to the reader of subtask {@code subtask} of the source
   * task {@code vertexId}; they become mail of that task, after what reached it before and before
   * any later {@link TriggerCheckpoint}. The splits are classes of the job (a connector's or the
   * job jar's own), so they travel as bytes ({@link SplitAssignments}) that the task manager
   * decodes with the attempt's class loader.
   */
  public record AssignSplits(AttemptId attempt, String vertexId, int subtask, byte[] splits)
      implements Serializable {}

  /**
   * The enumerator on the job manager assigns the reader of subtask {@code subtask} of the source
   * task {@code vertexId} no more splits; sent on the connection of its {@link AssignSplits}, after
   * them.
   */
  public record NoMoreSplits(AttemptId attempt, String vertexId, int subtask)
      implements Serializable {}

  public record NotifyCheckpointComplete(AttemptId attempt, long checkpointId)
      implements Serializable {}

  public record NotifyCheckpointAborted(AttemptId attempt, long checkpointId)
      implements Serializable {}

  /**
   * The job finished and its final checkpoint was notified, or it stopped with a savepoint that was
   * notified: end the subtasks normally, each after the mail it holds.
   */
  public record TerminateTasks(AttemptId attempt) implements Serializable {}

  /** Stop every subtask of the attempt at once (failover or cancel). */
  public record CancelTasks(AttemptId attempt) implements Serializable {}

  /**
   * What the job manager sends a task manager, with the leader epoch it was sent in. A task manager
   * refuses a message of an older epoch than the newest it knows: a deposed leader that wakes up
   * cannot deploy, checkpoint, or make a sink commit.
   */
  public record Fenced(long epoch, Serializable message) implements Serializable {}
}
