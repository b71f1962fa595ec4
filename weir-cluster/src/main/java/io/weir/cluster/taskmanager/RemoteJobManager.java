package io.weir.cluster.taskmanager;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.ControlMessages.TaskReport;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.gateway.JobManagerGateway;

/**
 * The job manager as the subtasks of one attempt on this task manager report to it: each call is a
 * message on the task manager's control connection (which keeps their order). A failure travels as
 * a line naming the subtask and this task manager.
 */
final class RemoteJobManager implements JobManagerGateway {
  private final AttemptId attempt;
  private final String taskManagerId;
  private final RpcConnection connection;

  RemoteJobManager(AttemptId attempt, String taskManagerId, RpcConnection connection) {
    this.attempt = attempt;
    this.taskManagerId = taskManagerId;
    this.connection = connection;
  }

  @Override
  public void tasksDeployed(String taskManagerId, Throwable error) {
    connection.send(
        new ControlMessages.TasksDeployed(
            attempt, taskManagerId, error == null ? null : error.toString()));
  }

  @Override
  public void taskRunning(SubtaskKey subtask) {
    report(subtask, TaskReport.Kind.RUNNING, null);
  }

  @Override
  public void sinkReceivedFirstRecord(SubtaskKey subtask) {
    report(subtask, TaskReport.Kind.SINK_OUTPUT_STARTED, null);
  }

  @Override
  public void taskDataFinished(SubtaskKey subtask) {
    report(subtask, TaskReport.Kind.DATA_FINISHED, null);
  }

  @Override
  public void taskTerminated(SubtaskKey subtask) {
    report(subtask, TaskReport.Kind.TERMINATED, null);
  }

  @Override
  public void taskFailed(SubtaskKey subtask, String taskName, Throwable cause) {
    report(
        subtask,
        SuppressRestartsException.isIn(cause)
            ? TaskReport.Kind.FAILED_FOR_GOOD
            : TaskReport.Kind.FAILED,
        taskName + " on " + taskManagerId + ": " + cause);
  }

  private void report(SubtaskKey subtask, TaskReport.Kind kind, String cause) {
    connection.send(new TaskReport(attempt, subtask.taskId(), subtask.subtaskIndex(), kind, cause));
  }

  @Override
  public void acknowledgeCheckpoint(long checkpointId, SubtaskKey subtask, StateHandle state) {
    connection.send(
        new ControlMessages.CheckpointAcknowledged(
            attempt,
            checkpointId,
            subtask.taskId(),
            subtask.subtaskIndex(),
            state.file(),
            state.length(),
            state.checksum()));
  }

  @Override
  public void declineCheckpoint(long checkpointId, SubtaskKey subtask, Throwable cause) {
    connection.send(
        new ControlMessages.CheckpointDeclined(
            attempt,
            checkpointId,
            subtask.taskId(),
            subtask.subtaskIndex(),
            String.valueOf(cause.getMessage())));
  }
}
