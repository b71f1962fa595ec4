package io.weir.cluster.jobmanager;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.ControlMessages.TaskReport;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.SavepointStop;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.execution.RecordCounts;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One attempt to run a job on the cluster: deploys the subtasks to their slots' task managers,
 * starts them once all are deployed, runs the checkpoint coordinator over the network, and ends
 * when every subtask terminated after the final checkpoint (success), or at the first failure or
 * lost task manager (every subtask cancelled). Events are handled on the job's own thread.
 */
final class ClusterAttempt implements CheckpointCoordinator.TaskGateway {
  private static final long DEPLOY_TIMEOUT_MILLIS = 60_000;
  private static final int MAX_FINAL_CHECKPOINT_TRIES = 5;

  private sealed interface Event {}

  private record Deployed(String taskManagerId, String error) implements Event {}

  private record Reported(TaskReport report) implements Event {}

  private record Lost(String taskManagerId) implements Event {}

  private record Cancelled() implements Event {}

  private record FinalCheckpointDone(Throwable failure) implements Event {}

  private record StopRequested(SavepointStop stop) implements Event {}

  private record StopSavepointDone(CompletedCheckpoint savepoint, Throwable failure)
      implements Event {}

  private final AttemptId id;
  private final JobSubmission submission;
  private final Path jarFile;
  private final JobGraph graph;
  private final CompletedCheckpoint restored;
  private final List<RegisteredTaskManager> slots;
  private final Set<RegisteredTaskManager> taskManagers;
  private final CheckpointCoordinator coordinator;
  private final Map<Long, String> savepointDirectories = new ConcurrentHashMap<>();
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final int subtaskCount;
  private final Map<String, RecordCounts> progressByTaskManager = new ConcurrentHashMap<>();
  // Only on the job's thread: the stop-with-savepoint under way, or null.
  private SavepointStop stop;
  private volatile boolean ended;

  ClusterAttempt(
      AttemptId id,
      JobSubmission submission,
      Path jarFile,
      JobGraph graph,
      CompletedCheckpoint restored,
      List<RegisteredTaskManager> slots,
      CheckpointStorage storage,
      ScheduledExecutorService timer,
      Clock clock,
      long firstCheckpointId,
      CheckpointCoordinator.CompletionListener listener,
      CheckpointHistory history) {
    this.id = id;
    this.submission = submission;
    this.jarFile = jarFile;
    this.graph = graph;
    this.restored = restored;
    this.slots = slots;
    this.taskManagers = new LinkedHashSet<>(slots);
    Set<SubtaskKey> subtasks = new HashSet<>();
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        subtasks.add(new SubtaskKey(vertex.id(), i));
      }
    }
    this.subtaskCount = subtasks.size();
    this.coordinator =
        new CheckpointCoordinator(
            graph.jobName(),
            OperatorInfos.of(graph),
            subtasks,
            storage,
            graph.config(),
            this,
            timer,
            clock,
            firstCheckpointId,
            listener,
            history);
  }

  /** The latest record counts one task manager reported with its heartbeat. */
  void onProgress(String taskManagerId, ControlMessages.AttemptProgress progress) {
    progressByTaskManager.put(
        taskManagerId, new RecordCounts(progress.recordsIn(), progress.recordsOut()));
  }

  /** Records this attempt read and wrote, as of the task managers' latest heartbeats. */
  RecordCounts recordCounts() {
    return progressByTaskManager.values().stream().reduce(RecordCounts.NONE, RecordCounts::plus);
  }

  /** What this attempt restored from, or null for a fresh start. */
  CompletedCheckpoint restored() {
    return restored;
  }

  AttemptId id() {
    return id;
  }

  /**
   * Runs the attempt to its end; returns null on success (every subtask terminated after the final
   * checkpoint or a stop-with-savepoint), else the failure.
   */
  Throwable run() throws InterruptedException {
    try {
      return runToEnd();
    } finally {
      refuseStopsAfterTheEnd();
    }
  }

  private Throwable runToEnd() throws InterruptedException {
    Throwable deployFailure = deployAll();
    if (deployFailure != null) {
      cancelAll();
      return deployFailure;
    }
    sendAll(new ControlMessages.StartTasks(id));
    coordinator.startPeriodic();
    int dataFinished = 0;
    int terminated = 0;
    int finalTries = 0;
    while (true) {
      Event event = events.poll(1, TimeUnit.SECONDS);
      Throwable failure = failureOf(event);
      if (event instanceof Reported reported) {
        TaskReport.Kind kind = reported.report().kind();
        if (kind == TaskReport.Kind.DATA_FINISHED && ++dataFinished == subtaskCount) {
          coordinator.stopPeriodic();
          finalTries++;
          triggerFinalCheckpoint();
        } else if (kind == TaskReport.Kind.TERMINATED && ++terminated == subtaskCount) {
          coordinator.shutDown();
          if (stop != null) {
            stop.stopped();
          }
          return null;
        }
      } else if (event instanceof FinalCheckpointDone done) {
        if (done.failure() == null) {
          sendAll(new ControlMessages.TerminateTasks(id));
        } else if (finalTries++ < MAX_FINAL_CHECKPOINT_TRIES) {
          triggerFinalCheckpoint();
        } else {
          failure = new IllegalStateException("The final checkpoint failed", done.failure());
        }
      } else if (event instanceof StopRequested request) {
        startStop(request.stop());
      } else if (event instanceof StopSavepointDone done) {
        failure = onStopSavepointDone(done);
      }
      if (failure != null) {
        cancelAll();
        if (stop != null) {
          stop.fail(
              "The job failed while stopping with a savepoint: " + failure.getMessage(), failure);
        }
        return failure;
      }
    }
  }

  /** A stop asked for as the attempt ended would wait for ever: it fails instead. */
  private void refuseStopsAfterTheEnd() {
    ended = true;
    for (Event event : events) {
      if (event instanceof StopRequested request) {
        request.stop().fail("The job attempt ended before it could stop with a savepoint", null);
      }
    }
  }

  private void startStop(SavepointStop requested) {
    if (stop != null) {
      requested.fail("The job is stopping with a savepoint already", null);
      return;
    }
    stop = requested;
    synchronized (coordinator) {
      savepointDirectories.put(coordinator.nextCheckpointId(), stop.directory().toString());
      stop.trigger(
          coordinator,
          (savepoint, failure) -> events.add(new StopSavepointDone(savepoint, failure)));
    }
  }

  /**
   * A completed stop-with-savepoint ends every subtask after its notification (messages to a task
   * manager arrive in order); an aborted one lets the job go on; one complete but not told to the
   * tasks fails the attempt, which then restores from it. Returns the attempt's failure, or null.
   */
  private Throwable onStopSavepointDone(StopSavepointDone done) {
    if (done.failure() == null) {
      stop.savepointCompleted(done.savepoint());
      sendAll(new ControlMessages.TerminateTasks(id));
      return null;
    }
    if (done.failure() instanceof CheckpointCoordinator.NotificationLostException lost) {
      return lost;
    }
    stop.fail(
        "The savepoint failed, the job goes on: " + done.failure().getMessage(), done.failure());
    stop = null;
    return null;
  }

  /**
   * Stops the job with a savepoint into {@code directory}; completes with the savepoint once every
   * subtask ended after processing its notification.
   */
  CompletableFuture<CompletedCheckpoint> stopWithSavepoint(Path directory) {
    SavepointStop requested = new SavepointStop(directory, new SavepointStorage(directory));
    events.add(new StopRequested(requested));
    if (ended) {
      refuseStopsAfterTheEnd();
    }
    return requested.result();
  }

  private Throwable failureOf(Event event) {
    if (event instanceof Reported reported) {
      TaskReport report = reported.report();
      if (report.kind() == TaskReport.Kind.FAILED) {
        return new IllegalStateException(report.cause());
      } else if (report.kind() == TaskReport.Kind.FAILED_FOR_GOOD) {
        return new SuppressRestartsException(report.cause(), null);
      }
    } else if (event instanceof Lost lost) {
      return new IllegalStateException("Task manager " + lost.taskManagerId() + " was lost");
    } else if (event instanceof Cancelled) {
      return new java.util.concurrent.CancellationException("cancelled");
    }
    return null;
  }

  private Throwable deployAll() throws InterruptedException {
    Throwable sendFailure = sendDeployments();
    if (sendFailure != null) {
      return sendFailure;
    }
    Set<String> waiting = new HashSet<>();
    taskManagers.forEach(taskManager -> waiting.add(taskManager.id));
    long deadline = System.currentTimeMillis() + DEPLOY_TIMEOUT_MILLIS;
    while (!waiting.isEmpty()) {
      Event event =
          events.poll(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
      if (event == null) {
        return new IllegalStateException("Task managers " + waiting + " did not deploy in time");
      }
      Throwable failure = failureOf(event);
      if (failure != null) {
        return failure;
      }
      if (event instanceof StopRequested request) {
        request.stop().fail("The job is still being deployed; stop it once it runs", null);
      }
      if (event instanceof Deployed deployed) {
        if (deployed.error() != null) {
          return new IllegalStateException(
              "Task manager " + deployed.taskManagerId() + " cannot deploy: " + deployed.error());
        }
        waiting.remove(deployed.taskManagerId());
        maybeRememberJarHeld(deployed.taskManagerId());
      }
    }
    return null;
  }

  /** Sends each task manager its deployment, with the job's jar unless it holds it already. */
  private Throwable sendDeployments() {
    String restorePath = restored == null ? null : restored.location().toString();
    List<ControlMessages.SubtaskPlacement> placements = SlotAssignment.placements(graph, slots);
    byte[] jar = null;
    for (RegisteredTaskManager taskManager : taskManagers) {
      boolean shipJar = jarFile != null && !taskManager.jarsHeld.contains(jarSha256());
      if (shipJar && jar == null) {
        try {
          jar = Files.readAllBytes(jarFile);
        } catch (IOException e) {
          return new IllegalStateException("Cannot read the job's jar " + jarFile + ": " + e, e);
        }
      }
      taskManager.connection.send(
          new ControlMessages.DeployTasks(
              id, submission, restorePath, placements, shipJar ? jar : null));
    }
    return null;
  }

  private String jarSha256() {
    return submission.jar().sha256();
  }

  private void maybeRememberJarHeld(String taskManagerId) {
    if (jarFile != null) {
      taskManagers.stream()
          .filter(taskManager -> taskManager.id.equals(taskManagerId))
          .forEach(taskManager -> taskManager.jarsHeld.add(jarSha256()));
    }
  }

  private void sendAll(Serializable message) {
    taskManagers.forEach(taskManager -> taskManager.connection.send(message));
  }

  private void triggerFinalCheckpoint() {
    coordinator
        .trigger()
        .whenComplete((checkpoint, failure) -> events.add(new FinalCheckpointDone(failure)));
  }

  private void cancelAll() {
    coordinator.shutDown();
    sendAll(new ControlMessages.CancelTasks(id));
  }

  CompletableFuture<CompletedCheckpoint> triggerSavepoint(Path directory) {
    synchronized (coordinator) {
      savepointDirectories.put(coordinator.nextCheckpointId(), directory.toString());
      return coordinator.triggerSavepoint(
          new SavepointStorage(directory), CheckpointKind.SAVEPOINT);
    }
  }

  void cancel() {
    events.add(new Cancelled());
  }

  long nextCheckpointId() {
    return coordinator.nextCheckpointId();
  }

  /** True once the attempt ended because it stopped with a savepoint; on the job's thread. */
  boolean stoppedWithSavepoint() {
    return stop != null && stop.phase() == SavepointStop.Phase.STOPPED;
  }

  // ---- from the network threads

  void onDeployed(ControlMessages.TasksDeployed deployed) {
    events.add(new Deployed(deployed.taskManagerId(), deployed.error()));
  }

  void onReport(TaskReport report) {
    events.add(new Reported(report));
  }

  void onTaskManagerLost(String taskManagerId) {
    if (taskManagers.stream().anyMatch(taskManager -> taskManager.id.equals(taskManagerId))) {
      events.add(new Lost(taskManagerId));
    }
  }

  void onAcknowledged(ControlMessages.CheckpointAcknowledged ack) {
    coordinator.acknowledge(
        ack.checkpointId(),
        ack.vertexId(),
        ack.subtask(),
        new StateHandle(ack.file(), ack.length(), ack.checksum()));
  }

  void onDeclined(ControlMessages.CheckpointDeclined decline) {
    coordinator.decline(
        decline.checkpointId(),
        decline.vertexId(),
        decline.subtask(),
        new IllegalStateException(decline.reason()));
  }

  // ---- the coordinator's gateway

  @Override
  public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
    sendAll(
        new ControlMessages.TriggerCheckpoint(
            id, checkpointId, timestamp, savepointDirectories.remove(checkpointId), kind));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    sendAll(new ControlMessages.NotifyCheckpointComplete(id, checkpointId));
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    sendAll(new ControlMessages.NotifyCheckpointAborted(id, checkpointId));
  }
}
