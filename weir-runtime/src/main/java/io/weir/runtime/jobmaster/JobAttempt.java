package io.weir.runtime.jobmaster;

import io.weir.api.functions.LeaseEpoch;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.SavepointStop;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.SubtaskPlacement;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.startup.StartupPhases;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One attempt to run a job, in one JVM or on a cluster alike: deploys the subtasks to their slots'
 * task managers, starts them once all are deployed, runs the checkpoint coordinator (periodic
 * checkpoints from the moment every subtask runs), and ends when every subtask terminated after the
 * final checkpoint or a stop-with-savepoint (success), or at the first failure or lost task manager
 * (every subtask cancelled). What the task managers report is queued and handled on the job's own
 * thread, in {@link #run}.
 */
public final class JobAttempt implements JobManagerGateway {
  private static final long DEPLOY_TIMEOUT_MILLIS = 60_000;
  private static final int MAX_FINAL_CHECKPOINT_TRIES = 5;

  /** What the task managers, the coordinator and the user tell the attempt's thread. */
  private sealed interface Event {}

  private record Deployed(String taskManagerId, Throwable error) implements Event {}

  private record Running(SubtaskKey subtask) implements Event {}

  private record SinkOutputStarted(SubtaskKey subtask) implements Event {}

  private record DataFinished(SubtaskKey subtask) implements Event {}

  private record Terminated(SubtaskKey subtask) implements Event {}

  private record Failed(Throwable cause) implements Event {}

  private record FinalCheckpointDone(Throwable failure) implements Event {}

  private record StopRequested(SavepointStop stop) implements Event {}

  private record StopSavepointDone(CompletedCheckpoint savepoint, Throwable failure)
      implements Event {}

  private final int number;
  private final JobGraph graph;
  private final CompletedCheckpoint restored;
  private final List<TaskManagerGateway> slots;
  private final AttemptTaskManagers taskManagers;
  private final CheckpointCoordinator coordinator;
  private final SourceEnumerators enumerators;
  private final LeaseEpoch leaseEpoch;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final int subtaskCount;
  // Only on the job's thread: the stop-with-savepoint under way, or null.
  private SavepointStop stop;
  // Only on the job's thread: how the attempt comes to its end, and the subtasks that finished
  // their data, and the tries of the final checkpoint so far.
  private AttemptEnding ending = AttemptEnding.RUNNING;
  private int dataFinished;
  private int finalTries;
  // Only on the job's thread: whether a sink of this attempt received a record yet.
  private boolean outputStarted;
  private volatile boolean ended;

  /**
   * @param slots the task manager of each slot (see {@link io.weir.runtime.gateway.SlotPool})
   * @param listener told about each completed checkpoint, before its notifications
   * @param failpoints the job's, which its coordinator passes
   */
  public JobAttempt(
      int number,
      JobGraph graph,
      CompletedCheckpoint restored,
      List<TaskManagerGateway> slots,
      RoutingCheckpointStorage storage,
      ScheduledExecutorService timer,
      Clock clock,
      long firstCheckpointId,
      CheckpointCoordinator.CompletionListener listener,
      CheckpointHistory history,
      Failpoints failpoints) {
    this.number = number;
    this.graph = graph;
    this.restored = restored;
    this.slots = List.copyOf(slots);
    this.taskManagers = new AttemptTaskManagers(slots);
    this.leaseEpoch = storage.leaseEpoch();
    Set<SubtaskKey> subtasks = new HashSet<>();
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        subtasks.add(new SubtaskKey(vertex.id(), i));
      }
    }
    this.subtaskCount = subtasks.size();
    this.enumerators =
        new SourceEnumerators(graph, restored, slots, cause -> events.add(new Failed(cause)));
    this.coordinator =
        new CheckpointCoordinator(
            graph.jobName(),
            OperatorInfos.of(graph),
            subtasks,
            storage,
            graph.config(),
            taskManagers,
            timer,
            clock,
            firstCheckpointId,
            listener,
            history,
            failpoints,
            enumerators);
  }

  /** 0 for the first attempt of the job, then one more per restart. */
  public int number() {
    return number;
  }

  /** What this attempt restored from, or null for a fresh start. */
  public CompletedCheckpoint restored() {
    return restored;
  }

  /**
   * Runs the attempt to its end, on the job's thread; returns null on success (every subtask
   * terminated after the final checkpoint or a stop-with-savepoint), else the failure.
   */
  public Throwable run() throws InterruptedException {
    try {
      return runToEnd();
    } finally {
      enumerators.close();
      refuseStopsAfterTheEnd();
    }
  }

  private Throwable runToEnd() throws InterruptedException {
    coordinator.prepareStorage();
    try {
      enumerators.start();
    } catch (Exception e) {
      return e;
    }
    Throwable deployFailure = deployAll();
    if (deployFailure != null) {
      cancelAll();
      return deployFailure;
    }
    StartupPhases.reached("every subtask deployed");
    taskManagers.start();
    int running = 0;
    int terminated = 0;
    while (true) {
      Event event = events.poll(1, TimeUnit.SECONDS);
      Throwable failure = null;
      if (event instanceof Failed failed) {
        failure = failed.cause();
      } else if (event instanceof Running started) {
        enumerators.taskRunning(started.subtask());
        if (++running == subtaskCount) {
          StartupPhases.reached("every subtask runs");
          startPeriodicCheckpoints();
        }
      } else if (event instanceof SinkOutputStarted started) {
        maybeCheckpointFirstOutput(started.subtask());
      } else if (event instanceof DataFinished) {
        dataFinished++;
        if (ending == AttemptEnding.RUNNING) {
          maybeBeginFinalCheckpoint();
        }
      } else if (event instanceof FinalCheckpointDone done) {
        if (done.failure() == null) {
          ending = ending.moveTo(AttemptEnding.TERMINATING);
          taskManagers.terminate();
        } else if (finalTries++ < MAX_FINAL_CHECKPOINT_TRIES) {
          triggerFinalCheckpoint();
        } else {
          failure =
              new IllegalStateException(
                  "The final checkpoint failed " + MAX_FINAL_CHECKPOINT_TRIES + " times",
                  done.failure());
        }
      } else if (event instanceof StopRequested request) {
        startStop(request.stop());
      } else if (event instanceof StopSavepointDone done) {
        failure = onStopSavepointDone(done);
      } else if (event instanceof Terminated && ++terminated == subtaskCount) {
        coordinator.shutDown();
        if (stop != null) {
          stop.stopped();
        }
        return null;
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

  private Throwable deployAll() throws InterruptedException {
    AttemptDeployment deployment =
        new AttemptDeployment(
            number, restored, placements(), enumerators.enumeratedSources(), leaseEpoch);
    Set<String> waiting = new HashSet<>(taskManagers.ids());
    taskManagers.deploy(deployment, this);
    long deadline = System.currentTimeMillis() + DEPLOY_TIMEOUT_MILLIS;
    while (!waiting.isEmpty()) {
      Event event =
          events.poll(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
      if (event == null) {
        return new IllegalStateException("Task managers " + waiting + " did not deploy in time");
      } else if (event instanceof Failed failed) {
        return failed.cause();
      } else if (event instanceof StopRequested request) {
        request.stop().fail("The job is still being deployed; stop it once it runs", null);
      } else if (event instanceof Deployed deployed) {
        if (deployed.error() != null) {
          return new IllegalStateException(
              "Task manager "
                  + deployed.taskManagerId()
                  + " cannot deploy: "
                  + deployed.error().getMessage(),
              deployed.error());
        }
        waiting.remove(deployed.taskManagerId());
      }
    }
    return null;
  }

  private List<SubtaskPlacement> placements() {
    List<SubtaskPlacement> placements = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        placements.add(new SubtaskPlacement(vertex.id(), i, slots.get(i).taskManagerId()));
      }
    }
    return placements;
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

  /**
   * Once every subtask finished its data, stops periodic checkpoints and takes the final one; while
   * a stop-with-savepoint is under way its savepoint takes that place (see {@link AttemptEnding}).
   */
  private void maybeBeginFinalCheckpoint() {
    if (dataFinished < subtaskCount) {
      return;
    }
    ending = ending.moveTo(AttemptEnding.FINAL_CHECKPOINT);
    coordinator.stopPeriodic();
    finalTries++;
    triggerFinalCheckpoint();
  }

  private void startStop(SavepointStop requested) {
    if (stop != null) {
      requested.fail("The job is stopping with a savepoint already", null);
      return;
    }
    if (ending != AttemptEnding.RUNNING) {
      // Its final checkpoint commits everything; a savepoint beside it would only race it.
      requested.fail(
          "The job finished before it could stop with a savepoint: every subtask reached the end"
              + " of its input, and the final checkpoint commits its output",
          null);
      return;
    }
    ending = ending.moveTo(AttemptEnding.STOPPING);
    stop = requested;
    synchronized (coordinator) {
      taskManagers.routeSavepoint(coordinator.nextCheckpointId(), stop.directory());
      stop.trigger(
          coordinator,
          (savepoint, failure) -> events.add(new StopSavepointDone(savepoint, failure)));
    }
  }

  /**
   * A completed stop-with-savepoint ends every subtask after its notification (calls to a task
   * manager arrive in order); an aborted one lets the job go on (its sources resume), or take its
   * final checkpoint when every subtask finished its data meanwhile; one complete but not told to
   * the tasks fails the attempt, which then restores from it. Returns the attempt's failure, or
   * null.
   */
  private Throwable onStopSavepointDone(StopSavepointDone done) {
    if (done.failure() == null) {
      stop.savepointCompleted(done.savepoint());
      ending = ending.moveTo(AttemptEnding.TERMINATING);
      taskManagers.terminate();
      return null;
    }
    if (done.failure() instanceof CheckpointCoordinator.NotificationLostException lost) {
      return lost;
    }
    stop.fail(
        "The savepoint failed, the job goes on: " + done.failure().getMessage(), done.failure());
    stop = null;
    ending = ending.moveTo(AttemptEnding.RUNNING);
    maybeBeginFinalCheckpoint();
    return null;
  }

  /**
   * Stops the job with a savepoint into {@code directory}: the sources emit nothing after its
   * barrier, and once it completed every subtask ends after processing its notification. The future
   * completes with the savepoint when every subtask ended, or fails with a line for the user.
   */
  public CompletableFuture<CompletedCheckpoint> stopWithSavepoint(Path directory) {
    SavepointStop requested = new SavepointStop(directory, new SavepointStorage(directory));
    events.add(new StopRequested(requested));
    if (ended) {
      refuseStopsAfterTheEnd();
    }
    return requested.result();
  }

  public CompletableFuture<CompletedCheckpoint> triggerSavepoint(Path directory) {
    synchronized (coordinator) {
      taskManagers.routeSavepoint(coordinator.nextCheckpointId(), directory);
      return coordinator.triggerSavepoint(
          new SavepointStorage(directory), CheckpointKind.SAVEPOINT);
    }
  }

  /** True once the attempt ended because it stopped with a savepoint; on the job's thread. */
  public boolean stoppedWithSavepoint() {
    return stop != null && stop.phase() == SavepointStop.Phase.STOPPED;
  }

  /** Ends the attempt from outside: its {@link #run} returns a cancellation. */
  public void cancel() {
    events.add(new Failed(new CancellationException("cancelled")));
  }

  /** A task manager of this attempt is gone: the attempt fails. Others are ignored. */
  public void taskManagerLost(String taskManagerId) {
    if (taskManagers.contains(taskManagerId)) {
      events.add(
          new Failed(new IllegalStateException("Task manager " + taskManagerId + " was lost")));
    }
  }

  public long nextCheckpointId() {
    return coordinator.nextCheckpointId();
  }

  private void triggerFinalCheckpoint() {
    coordinator
        .trigger()
        .whenComplete((checkpoint, failure) -> events.add(new FinalCheckpointDone(failure)));
  }

  private void cancelAll() {
    coordinator.shutDown();
    taskManagers.cancel();
  }

  // ---- from the task managers

  @Override
  public void tasksDeployed(String taskManagerId, Throwable error) {
    events.add(new Deployed(taskManagerId, error));
  }

  /**
   * Checkpoints start once every subtask runs, the first one right away: one triggered earlier
   * would wait at a subtask still restoring (its sink committing the restored transactions), and
   * would hold nothing; one an interval later would delay the first output (after a restore, the
   * first new output) by that interval.
   */
  private void startPeriodicCheckpoints() {
    coordinator.startPeriodicNow();
  }

  /** Queued like every report: the coordinator may be busy completing a checkpoint meanwhile. */
  @Override
  public void taskRunning(SubtaskKey subtask) {
    events.add(new Running(subtask));
  }

  @Override
  public void sinkReceivedFirstRecord(SubtaskKey subtask) {
    events.add(new SinkOutputStarted(subtask));
  }

  private void maybeCheckpointFirstOutput(SubtaskKey subtask) {
    if (!outputStarted) {
      outputStarted = true;
      StartupPhases.reached("first record at a sink (" + subtask + ")");
      coordinator.outputStarted();
    }
  }

  @Override
  public void taskDataFinished(SubtaskKey subtask) {
    events.add(new DataFinished(subtask));
  }

  @Override
  public void taskTerminated(SubtaskKey subtask) {
    events.add(new Terminated(subtask));
  }

  @Override
  public void taskFailed(SubtaskKey subtask, String taskName, Throwable cause) {
    events.add(new Failed(cause));
  }

  @Override
  public void acknowledgeCheckpoint(long checkpointId, SubtaskKey subtask, StateHandle state) {
    coordinator.acknowledge(checkpointId, subtask.taskId(), subtask.subtaskIndex(), state);
  }

  @Override
  public void declineCheckpoint(long checkpointId, SubtaskKey subtask, Throwable cause) {
    coordinator.decline(checkpointId, subtask.taskId(), subtask.subtaskIndex(), cause);
  }
}
