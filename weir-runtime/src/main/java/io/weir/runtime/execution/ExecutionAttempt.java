package io.weir.runtime.execution;

import io.weir.api.graph.Partitioning;
import io.weir.api.graph.Transformation;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CheckpointResponder;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.SavepointStop;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.exchange.ChannelSelector;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.graph.JobEdge;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.task.OneInputStreamTask;
import io.weir.runtime.task.OutputEdge;
import io.weir.runtime.task.SourceStreamTask;
import io.weir.runtime.task.StreamTask;
import io.weir.runtime.task.TaskDeployment;
import io.weir.runtime.task.TaskListener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One attempt to run the job: deploys every subtask with its share of the restored checkpoint, runs
 * the checkpoint coordinator, and ends when every task terminated after the final checkpoint
 * (success) or at the first task failure (all tasks cancelled).
 */
final class ExecutionAttempt
    implements TaskListener, CheckpointCoordinator.TaskGateway, CheckpointResponder {
  private static final int BATCH_SIZE = 512;
  private static final int MAX_FINAL_CHECKPOINT_TRIES = 5;

  /** What the tasks and the coordinator tell the attempt's thread. */
  private sealed interface Event {}

  private record DataFinished(StreamTask task) implements Event {}

  private record Terminated(StreamTask task) implements Event {}

  private record Failed(StreamTask task, Throwable cause) implements Event {}

  private record FinalCheckpointDone(Throwable failure) implements Event {}

  private record StopRequested(SavepointStop stop) implements Event {}

  private record StopSavepointDone(CompletedCheckpoint savepoint, Throwable failure)
      implements Event {}

  private final JobGraph graph;
  private final int attempt;
  private final CompletedCheckpoint restored;
  private final CheckpointStorage storage;
  private final Executor snapshotExecutor;
  private final Clock clock;
  private final List<StreamTask> tasks = new ArrayList<>();
  private final List<SourceStreamTask> sources = new ArrayList<>();
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final CheckpointCoordinator coordinator;
  private final AtomicReference<CompletedCheckpoint> latestCompleted = new AtomicReference<>();
  private final AtomicLong completedCheckpoints = new AtomicLong();
  private final AtomicLong checkpointMillis = new AtomicLong();
  private final AtomicInteger running = new AtomicInteger();
  // Only on the attempt's thread: the stop-with-savepoint under way, or null.
  private SavepointStop stop;
  private volatile boolean ended;

  ExecutionAttempt(
      JobGraph graph,
      int attempt,
      CompletedCheckpoint restored,
      CheckpointStorage storage,
      ScheduledExecutorService timer,
      Executor snapshotExecutor,
      Clock clock,
      long firstCheckpointId,
      CheckpointHistory history) {
    this.graph = graph;
    this.attempt = attempt;
    this.restored = restored;
    this.storage = storage;
    this.snapshotExecutor = snapshotExecutor;
    this.clock = clock;
    deploy();
    this.coordinator =
        new CheckpointCoordinator(
            graph.jobName(),
            operatorInfos(graph),
            subtaskKeys(),
            storage,
            graph.config(),
            this,
            timer,
            clock,
            firstCheckpointId,
            checkpoint -> {
              latestCompleted.set(checkpoint);
              completedCheckpoints.incrementAndGet();
              checkpointMillis.addAndGet(clock.millis() - checkpoint.timestamp());
            },
            history);
  }

  List<OperatorInfo> operatorInfos() {
    return operatorInfos(graph);
  }

  static List<OperatorInfo> operatorInfos(JobGraph graph) {
    List<OperatorInfo> infos = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      for (Transformation t : vertex.chain()) {
        infos.add(
            new OperatorInfo(
                t.uid(), t.displayName(), vertex.parallelism(), graph.config().maxParallelism()));
      }
    }
    return infos;
  }

  private Set<SubtaskKey> subtaskKeys() {
    Set<SubtaskKey> keys = new HashSet<>();
    for (StreamTask task : tasks) {
      keys.add(new SubtaskKey(task.deployment().vertex().id(), task.deployment().subtaskIndex()));
    }
    return keys;
  }

  private void deploy() {
    Map<JobVertex, List<InputGate>> gates = new HashMap<>();
    for (JobVertex vertex : graph.vertices()) {
      List<InputGate> vertexGates = new ArrayList<>();
      int channels = graph.inputsOf(vertex).stream().mapToInt(e -> e.source().parallelism()).sum();
      for (int i = 0; i < vertex.parallelism(); i++) {
        vertexGates.add(
            vertex.isSource() ? null : new InputGate(channels, Math.max(8, 2 * channels)));
      }
      gates.put(vertex, vertexGates);
    }
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        TaskDeployment deployment =
            new TaskDeployment(
                graph.jobName(),
                vertex,
                i,
                attempt,
                graph.config(),
                StateAssigner.statesFor(restored, vertex, i, graph.config().maxParallelism()),
                restored == null ? OptionalLong.empty() : OptionalLong.of(restored.checkpointId()),
                gates.get(vertex).get(i),
                outputsOf(vertex, i, gates),
                storage,
                this,
                this,
                snapshotExecutor,
                clock);
        StreamTask task =
            vertex.isSource()
                ? new SourceStreamTask(deployment)
                : new OneInputStreamTask(deployment);
        tasks.add(task);
        if (task instanceof SourceStreamTask source) {
          sources.add(source);
        }
      }
    }
  }

  private List<OutputEdge> outputsOf(
      JobVertex vertex, int subtask, Map<JobVertex, List<InputGate>> gates) {
    List<OutputEdge> outputs = new ArrayList<>();
    for (JobEdge edge : graph.outputsOf(vertex)) {
      JobVertex target = edge.target();
      int channelOffset = 0;
      for (JobEdge input : graph.inputsOf(target)) {
        if (input == edge) {
          break;
        }
        channelOffset += input.source().parallelism();
      }
      ChannelSelector selector;
      if (edge.partitioning() instanceof Partitioning.Hash hash) {
        selector =
            ChannelSelector.byKeyGroup(
                hash.keySelector(), graph.config().maxParallelism(), target.parallelism());
      } else if (edge.partitioning() instanceof Partitioning.Rebalance) {
        selector = ChannelSelector.rebalance(subtask, target.parallelism());
      } else {
        selector = ChannelSelector.forward(subtask);
      }
      RecordWriter writer =
          new RecordWriter(selector, gates.get(target), channelOffset + subtask, BATCH_SIZE);
      outputs.add(new OutputEdge(writer, edge.sideOutput()));
    }
    return outputs;
  }

  /**
   * Runs the attempt to its end; returns null on success (every task terminated after the final
   * checkpoint or a stop-with-savepoint), else the first failure.
   */
  Throwable run() throws InterruptedException {
    try {
      return runToEnd();
    } finally {
      refuseStopsAfterTheEnd();
    }
  }

  private Throwable runToEnd() throws InterruptedException {
    // Periodic checkpoints start when the last task runs (onRunning).
    tasks.forEach(StreamTask::start);
    int dataFinished = 0;
    int terminated = 0;
    int finalTries = 0;
    while (true) {
      Event event = events.poll(1, TimeUnit.SECONDS);
      Throwable failure = null;
      if (event instanceof Failed failed) {
        failure = failed.cause();
      } else if (event instanceof DataFinished) {
        if (++dataFinished == tasks.size()) {
          coordinator.stopPeriodic();
          finalTries++;
          triggerFinalCheckpoint();
        }
      } else if (event instanceof FinalCheckpointDone done) {
        if (done.failure() == null) {
          tasks.forEach(StreamTask::terminate);
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
      } else if (event instanceof Terminated && ++terminated == tasks.size()) {
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
    stop.trigger(
        coordinator, (savepoint, failure) -> events.add(new StopSavepointDone(savepoint, failure)));
  }

  /**
   * A completed stop-with-savepoint ends every task after its notification; an aborted one lets the
   * job go on (its sources resume); one complete but not told to the tasks fails the attempt, which
   * then restores from it. Returns the attempt's failure, or null.
   */
  private Throwable onStopSavepointDone(StopSavepointDone done) {
    if (done.failure() == null) {
      stop.savepointCompleted(done.savepoint());
      tasks.forEach(StreamTask::terminate);
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
   * Stops the job with a savepoint into {@code directory}: the sources emit nothing after its
   * barrier, and once it completed every task ends after processing its notification. The future
   * completes with the savepoint when every task ended, or fails with a line for the user.
   */
  CompletableFuture<CompletedCheckpoint> stopWithSavepoint(java.nio.file.Path directory) {
    SavepointStop requested = new SavepointStop(directory, new SavepointStorage(directory));
    events.add(new StopRequested(requested));
    if (ended) {
      refuseStopsAfterTheEnd();
    }
    return requested.result();
  }

  CompletableFuture<CompletedCheckpoint> triggerSavepoint(java.nio.file.Path directory) {
    return coordinator.triggerSavepoint(new SavepointStorage(directory), CheckpointKind.SAVEPOINT);
  }

  /** Ends the attempt from outside: its {@link #run} returns a cancellation. */
  void cancel() {
    events.add(new Failed(null, new java.util.concurrent.CancellationException("cancelled")));
  }

  private void triggerFinalCheckpoint() {
    CompletableFuture<CompletedCheckpoint> result = coordinator.trigger();
    result.whenComplete((checkpoint, failure) -> events.add(new FinalCheckpointDone(failure)));
  }

  private void cancelAll() throws InterruptedException {
    coordinator.shutDown();
    tasks.forEach(StreamTask::cancel);
    for (StreamTask task : tasks) {
      task.join(10_000);
    }
  }

  List<StreamTask> tasks() {
    return tasks;
  }

  /** 0 for the first attempt of the job, then one more per restart. */
  int number() {
    return attempt;
  }

  CompletedCheckpoint latestCompleted() {
    return latestCompleted.get();
  }

  long completedCheckpoints() {
    return completedCheckpoints.get();
  }

  /** Trigger to completion, summed over this attempt's completed checkpoints. */
  long checkpointMillis() {
    return checkpointMillis.get();
  }

  long nextCheckpointId() {
    return coordinator.nextCheckpointId();
  }

  /**
   * Checkpoints start once every task runs, the first one right away: one triggered earlier would
   * wait at a task still restoring (its sink committing the restored transactions), and would hold
   * nothing; one an interval later would delay the first output (after a restore, the first new
   * output) by that interval.
   */
  @Override
  public void onRunning(StreamTask task) {
    if (running.incrementAndGet() == tasks.size()) {
      coordinator.startPeriodicNow();
    }
  }

  @Override
  public void onDataFinished(StreamTask task) {
    events.add(new DataFinished(task));
  }

  @Override
  public void onTerminated(StreamTask task) {
    events.add(new Terminated(task));
  }

  @Override
  public void onFailure(StreamTask task, Throwable cause) {
    events.add(new Failed(task, cause));
  }

  @Override
  public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
    sources.forEach(source -> source.triggerCheckpoint(checkpointId, timestamp, kind));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    tasks.forEach(task -> task.notifyCheckpointComplete(checkpointId));
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    tasks.forEach(task -> task.notifyCheckpointAborted(checkpointId));
  }

  @Override
  public void acknowledge(long checkpointId, String taskId, int subtaskIndex, StateHandle state) {
    coordinator.acknowledge(checkpointId, taskId, subtaskIndex, state);
  }

  @Override
  public void decline(long checkpointId, String taskId, int subtaskIndex, Throwable cause) {
    coordinator.decline(checkpointId, taskId, subtaskIndex, cause);
  }
}
