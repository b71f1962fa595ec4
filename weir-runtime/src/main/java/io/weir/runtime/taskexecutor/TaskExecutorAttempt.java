package io.weir.runtime.taskexecutor;

import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CheckpointResponder;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.startup.BesideStartStatus;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.task.AssignedSplits;
import io.weir.runtime.task.OneInputStreamTask;
import io.weir.runtime.task.SourceStreamTask;
import io.weir.runtime.task.StreamTask;
import io.weir.runtime.task.TaskDeployment;
import io.weir.runtime.task.TaskListener;
import io.weir.runtime.task.TwoInputStreamTask;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The subtasks of one attempt that run on one task manager, in one JVM or on a cluster alike:
 * created with their share of the restored checkpoint, wired to the gates of local subtasks or to
 * the exchange transport for the others ({@link AttemptChannels}), and reporting to the job manager
 * through its gateway. Start, checkpoint, terminate and cancel calls come from one thread at a time
 * (the task manager's control thread, or the job's and coordinator's threads in one JVM).
 */
public final class TaskExecutorAttempt implements TaskListener, CheckpointResponder {
  private final String taskManagerId;
  private final JobGraph graph;
  private final AttemptDeployment deployment;
  private final RoutingCheckpointStorage storage;
  private final ExchangeTransport exchange;
  private final JobManagerGateway jobManager;
  private final Runnable whenAllTerminated;
  private final Failpoints failpoints;
  // What the subtasks left running beside their start: the attempt ends once it ended.
  private final BesideStartWork besideStartWork;
  private final AtomicInteger terminated = new AtomicInteger();
  // Read by progress and monitoring threads while the attempt runs.
  private final List<StreamTask> tasks = new CopyOnWriteArrayList<>();
  private final List<SourceStreamTask> sources = new ArrayList<>();

  /**
   * Creates this task manager's subtasks of the attempt and their gates; nothing runs yet.
   *
   * @param stateStorage where the subtasks store their state (the task side of the job's storage)
   * @param whenAllTerminated called on a task thread once every subtask here terminated normally
   * @param failpoints the job's in this process, kept across its attempts
   * @param besideStartWork what the subtasks leave running beside their start, with the lease that
   *     lets it start
   * @throws Exception when a subtask or a channel cannot be created
   */
  public TaskExecutorAttempt(
      String taskManagerId,
      JobGraph graph,
      AttemptDeployment deployment,
      CheckpointStorage stateStorage,
      ExchangeTransport exchange,
      JobManagerGateway jobManager,
      Executor snapshotExecutor,
      Clock clock,
      Runnable whenAllTerminated,
      Failpoints failpoints,
      BesideStartWork besideStartWork)
      throws Exception {
    this.taskManagerId = taskManagerId;
    this.graph = graph;
    this.deployment = deployment;
    this.storage = new RoutingCheckpointStorage(stateStorage);
    this.exchange = exchange;
    this.jobManager = jobManager;
    this.whenAllTerminated = whenAllTerminated;
    this.failpoints = failpoints;
    this.besideStartWork = besideStartWork;
    AttemptChannels channels = new AttemptChannels(taskManagerId, graph, deployment, exchange);
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        if (channels.isLocal(vertex, i)) {
          createTask(vertex, i, channels, snapshotExecutor, clock);
        }
      }
    }
  }

  private void createTask(
      JobVertex vertex,
      int subtask,
      AttemptChannels channels,
      Executor snapshotExecutor,
      Clock clock)
      throws Exception {
    CompletedCheckpoint restored = deployment.restored();
    TaskDeployment taskDeployment =
        new TaskDeployment(
            graph.jobName(),
            vertex,
            subtask,
            deployment.attempt(),
            graph.config(),
            StateAssigner.statesFor(restored, vertex, subtask, graph.config().maxParallelism()),
            restored == null ? OptionalLong.empty() : OptionalLong.of(restored.checkpointId()),
            channels.gateOf(vertex, subtask),
            channels.outputsOf(vertex, subtask),
            storage,
            this,
            this,
            snapshotExecutor,
            clock,
            failpoints,
            besideStartWork,
            deployment.splitDiscoveryOf(vertex.id()),
            deployment.leaseEpoch());
    StreamTask task;
    if (vertex.isSource()) {
      task = new SourceStreamTask(taskDeployment);
    } else if (vertex.isTwoInput()) {
      task = new TwoInputStreamTask(taskDeployment, channels.firstInputChannels(vertex));
    } else {
      task = new OneInputStreamTask(taskDeployment);
    }
    tasks.add(task);
    if (task instanceof SourceStreamTask source) {
      sources.add(source);
    }
  }

  public int attempt() {
    return deployment.attempt();
  }

  /** The subtasks of this task manager, for counters and monitoring. */
  public List<StreamTask> tasks() {
    return tasks;
  }

  /** What the subtasks here may still do beside their start; see {@link BesideStartWork#status}. */
  public BesideStartStatus besideStartStatus() {
    return besideStartWork.status();
  }

  public RecordCounts recordCounts() {
    return RecordCounts.of(tasks);
  }

  public void start() {
    tasks.forEach(StreamTask::start);
  }

  /**
   * @param savepointDirectory where this checkpoint's state goes, or null for the job's storage
   */
  public void triggerCheckpoint(
      long checkpointId, long timestamp, Path savepointDirectory, CheckpointKind kind) {
    if (savepointDirectory != null) {
      storage.route(checkpointId, new SavepointStorage(savepointDirectory));
    }
    sources.forEach(source -> source.triggerCheckpoint(checkpointId, timestamp, kind));
  }

  /**
   * Hands splits from the source's enumerator to one of this task manager's source subtasks, as its
   * mail. Splits for a subtask that is not here reach no reader: every source subtask here fails
   * before its next barrier (so no checkpoint completes that the enumerator counts them in), and
   * this throws.
   *
   * @throws IllegalArgumentException when the subtask is not on this task manager
   */
  public void assignSplits(String vertexId, int subtask, AssignedSplits splits) {
    sourceOf(vertexId, subtask, "Splits assigned to").addSplits(splits);
  }

  /**
   * Tells one of this task manager's source subtasks, as its mail after the splits handed to it
   * before, that its enumerator assigns it no more; fails as {@link #assignSplits} does when the
   * subtask is not here.
   *
   * @throws IllegalArgumentException when the subtask is not on this task manager
   */
  public void signalNoMoreSplits(String vertexId, int subtask) {
    sourceOf(vertexId, subtask, "The end of the splits of").noMoreSplits();
  }

  private SourceStreamTask sourceOf(String vertexId, int subtask, String what) {
    for (SourceStreamTask source : sources) {
      TaskDeployment task = source.deployment();
      if (task.vertex().id().equals(vertexId) && task.subtaskIndex() == subtask) {
        return source;
      }
    }
    IllegalArgumentException missing =
        new IllegalArgumentException(
            what
                + " subtask "
                + subtask
                + " of "
                + vertexId
                + " reached task manager "
                + taskManagerId
                + ", which does not run it");
    sources.forEach(source -> source.addSplits(AssignedSplits.undeliverable(missing)));
    throw missing;
  }

  public void notifyCheckpointComplete(long checkpointId) {
    tasks.forEach(task -> task.notifyCheckpointComplete(checkpointId));
  }

  public void notifyCheckpointAborted(long checkpointId) {
    storage.discard(checkpointId);
    tasks.forEach(task -> task.notifyCheckpointAborted(checkpointId));
  }

  public void terminate() {
    tasks.forEach(StreamTask::terminate);
  }

  /** Stops every subtask, waits for their threads, and releases the exchange. */
  public void cancel() throws InterruptedException {
    tasks.forEach(StreamTask::cancel);
    awaitThreadsAndRelease();
  }

  /**
   * Waits for the subtasks' threads to end (they terminated or were cancelled) and for what they
   * left running beside their start, then releases. The job's next attempt here deploys only after
   * this returned, so nothing this attempt started (a sink's fence of its transactional ids) lands
   * in it.
   */
  public void awaitThreadsAndRelease() throws InterruptedException {
    for (StreamTask task : tasks) {
      task.join(10_000);
    }
    besideStartWork.awaitAll();
    exchange.close();
  }

  private static SubtaskKey keyOf(StreamTask task) {
    return new SubtaskKey(task.deployment().vertex().id(), task.deployment().subtaskIndex());
  }

  @Override
  public void onRunning(StreamTask task) {
    jobManager.taskRunning(keyOf(task));
  }

  @Override
  public void onFirstSinkRecord(StreamTask task) {
    jobManager.sinkReceivedFirstRecord(keyOf(task));
  }

  @Override
  public void onDataFinished(StreamTask task) {
    jobManager.taskDataFinished(keyOf(task));
  }

  @Override
  public void onTerminated(StreamTask task) {
    jobManager.taskTerminated(keyOf(task));
    if (terminated.incrementAndGet() == tasks.size()) {
      whenAllTerminated.run();
    }
  }

  @Override
  public void onFailure(StreamTask task, Throwable cause) {
    jobManager.taskFailed(keyOf(task), task.taskName(), cause);
  }

  @Override
  public void acknowledge(long checkpointId, String taskId, int subtaskIndex, StateHandle state) {
    jobManager.acknowledgeCheckpoint(checkpointId, new SubtaskKey(taskId, subtaskIndex), state);
  }

  @Override
  public void decline(long checkpointId, String taskId, int subtaskIndex, Throwable cause) {
    jobManager.declineCheckpoint(checkpointId, new SubtaskKey(taskId, subtaskIndex), cause);
  }
}
