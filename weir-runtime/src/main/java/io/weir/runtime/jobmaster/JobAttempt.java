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
import io.weir.runtime.checkpoint.explain.CheckpointContents;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.SubtaskPlacement;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.jobmaster.AttemptEvent.DataFinished;
import io.weir.runtime.jobmaster.AttemptEvent.Deployed;
import io.weir.runtime.jobmaster.AttemptEvent.Failed;
import io.weir.runtime.jobmaster.AttemptEvent.FinalCheckpointDone;
import io.weir.runtime.jobmaster.AttemptEvent.Running;
import io.weir.runtime.jobmaster.AttemptEvent.SinkOutputStarted;
import io.weir.runtime.jobmaster.AttemptEvent.StopRequested;
import io.weir.runtime.jobmaster.AttemptEvent.StopSavepointDone;
import io.weir.runtime.jobmaster.AttemptEvent.Terminated;
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
 * (every subtask cancelled); {@link AttemptEnd} decides and carries out which end it comes to. What
 * the task managers report is queued as an {@link AttemptEvent} and handled on the job's own
 * thread, in {@link #run}.
 */
public final class JobAttempt implements JobManagerGateway {
  private static final long DEPLOY_TIMEOUT_MILLIS = 60_000;

  private final int number;
  private final JobGraph graph;
  private final CompletedCheckpoint restored;
  private final CheckpointContents restoredContents;
  private final List<TaskManagerGateway> slots;
  private final AttemptTaskManagers taskManagers;
  private final CheckpointCoordinator coordinator;
  private final SourceEnumerators enumerators;
  private final LeaseEpoch leaseEpoch;
  private final BlockingQueue<AttemptEvent> events = new LinkedBlockingQueue<>();
  private final int subtaskCount;
  // Only on the job's thread: the final checkpoint, a stop with savepoint, a failure or cancel.
  private final AttemptEnd end;
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
    // Read now, while the restored checkpoint's files are there for the restore: a newer checkpoint
    // may delete them while this attempt runs, and the recovery view explains the restore until it
    // ends.
    this.restoredContents = restored == null ? null : CheckpointContents.of(restored);
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
    this.end = new AttemptEnd(coordinator, taskManagers, subtaskCount, events::add);
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
   * The sources' positions and sinks' transactions of {@link #restored}, or null for a fresh start.
   */
  public CheckpointContents restoredContents() {
    return restoredContents;
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
      return end.fail(deployFailure);
    }
    StartupPhases.reached("every subtask deployed");
    taskManagers.start();
    int running = 0;
    int terminated = 0;
    while (true) {
      AttemptEvent event = events.poll(1, TimeUnit.SECONDS);
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
        end.dataFinished();
      } else if (event instanceof FinalCheckpointDone done) {
        failure = end.finalCheckpointDone(done.failure());
      } else if (event instanceof StopRequested request) {
        end.stopRequested(request.stop());
      } else if (event instanceof StopSavepointDone done) {
        failure = end.stopSavepointDone(done.savepoint(), done.failure());
      } else if (event instanceof Terminated && ++terminated == subtaskCount) {
        end.succeed();
        return null;
      }
      if (failure != null) {
        return end.fail(failure);
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
      AttemptEvent event =
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
    for (AttemptEvent event : events) {
      if (event instanceof StopRequested request) {
        request.stop().fail("The job attempt ended before it could stop with a savepoint", null);
      }
    }
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
    return end.stoppedWithSavepoint();
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
