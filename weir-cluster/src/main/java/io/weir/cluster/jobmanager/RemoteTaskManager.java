package io.weir.cluster.jobmanager;

import io.weir.api.source.SourceSplit;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.cluster.rpc.SplitAssignments;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.SubtaskPlacement;
import io.weir.runtime.gateway.TaskManagerGateway;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A task manager process as one attempt talks to it: each call is a message on its control
 * connection, which keeps their order (so split assignments reach a source task before the trigger
 * of a checkpoint whose enumerator snapshot counts them). The deployment names the job's code (the
 * task manager rebuilds the job from it) and ships the job's jar unless the task manager holds it
 * already.
 */
final class RemoteTaskManager implements TaskManagerGateway {
  private final AttemptId attempt;
  private final RegisteredTaskManager taskManager;
  private final JobSubmission submission;
  private final Path jarFile;
  private final Function<String, RegisteredTaskManager> registered;

  /**
   * @param jarFile the job's jar, or null when the job's code is on the class path
   * @param registered the task managers of the attempt, by id (for their data addresses)
   */
  RemoteTaskManager(
      AttemptId attempt,
      RegisteredTaskManager taskManager,
      JobSubmission submission,
      Path jarFile,
      Function<String, RegisteredTaskManager> registered) {
    this.attempt = attempt;
    this.taskManager = taskManager;
    this.submission = submission;
    this.jarFile = jarFile;
    this.registered = registered;
  }

  @Override
  public String taskManagerId() {
    return taskManager.id;
  }

  @Override
  public void deploy(AttemptDeployment deployment, JobManagerGateway jobManager) {
    byte[] jar = null;
    if (jarFile != null && !taskManager.jarsHeld.contains(jarSha256())) {
      try {
        jar = Files.readAllBytes(jarFile);
      } catch (IOException e) {
        jobManager.tasksDeployed(
            taskManager.id,
            new IllegalStateException("Cannot read the job's jar " + jarFile + ": " + e, e));
        return;
      }
    }
    String restorePath =
        deployment.restored() == null ? null : deployment.restored().location().toString();
    send(
        new ControlMessages.DeployTasks(
            attempt,
            submission,
            restorePath,
            placements(deployment),
            jar,
            deployment.enumeratedSources()));
  }

  private List<ControlMessages.SubtaskPlacement> placements(AttemptDeployment deployment) {
    List<ControlMessages.SubtaskPlacement> placements = new ArrayList<>();
    for (SubtaskPlacement placement : deployment.placements()) {
      RegisteredTaskManager target = registered.apply(placement.taskManagerId());
      placements.add(
          new ControlMessages.SubtaskPlacement(
              placement.vertexId(),
              placement.subtask(),
              placement.taskManagerId(),
              target.dataAddress));
    }
    return placements;
  }

  /** The task manager deployed the attempt: it holds the job's jar from now on. */
  void onDeployed() {
    if (jarFile != null) {
      taskManager.jarsHeld.add(jarSha256());
    }
  }

  private String jarSha256() {
    return submission.jar().sha256();
  }

  @Override
  public void start() {
    taskManager.startsSent.add(attempt);
    send(new ControlMessages.StartTasks(attempt));
  }

  @Override
  public void triggerCheckpoint(
      long checkpointId, long timestamp, Path savepointDirectory, CheckpointKind kind) {
    send(
        new ControlMessages.TriggerCheckpoint(
            attempt,
            checkpointId,
            timestamp,
            savepointDirectory == null ? null : savepointDirectory.toString(),
            kind));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    send(new ControlMessages.NotifyCheckpointComplete(attempt, checkpointId));
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    send(new ControlMessages.NotifyCheckpointAborted(attempt, checkpointId));
  }

  @Override
  public void assignSplits(String vertexId, int subtask, List<SourceSplit> splits) {
    send(
        new ControlMessages.AssignSplits(
            attempt, vertexId, subtask, SplitAssignments.encode(splits)));
  }

  @Override
  public void signalNoMoreSplits(String vertexId, int subtask) {
    send(new ControlMessages.NoMoreSplits(attempt, vertexId, subtask));
  }

  @Override
  public void terminate() {
    send(new ControlMessages.TerminateTasks(attempt));
  }

  @Override
  public void cancel() {
    send(new ControlMessages.CancelTasks(attempt));
  }

  private void send(Serializable message) {
    taskManager.connection.send(message);
  }
}
