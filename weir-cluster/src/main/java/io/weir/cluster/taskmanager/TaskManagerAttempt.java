package io.weir.cluster.taskmanager;

import io.weir.api.datastream.StreamPlan;
import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.graph.Partitioning;
import io.weir.cluster.JobCode;
import io.weir.cluster.JobPlans;
import io.weir.cluster.exchange.InboundGates;
import io.weir.cluster.exchange.OutboundChannels;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.ControlMessages.SubtaskPlacement;
import io.weir.cluster.rpc.ControlMessages.TaskReport;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CheckpointResponder;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.ChannelSelector;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.execution.RecordCounts;
import io.weir.runtime.execution.StateAssigner;
import io.weir.runtime.graph.JobEdge;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.task.OneInputStreamTask;
import io.weir.runtime.task.OutputEdge;
import io.weir.runtime.task.SourceStreamTask;
import io.weir.runtime.task.StreamTask;
import io.weir.runtime.task.TaskDeployment;
import io.weir.runtime.task.TaskListener;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The subtasks of one job attempt that run on this task manager: rebuilt from the job's own code,
 * wired to local gates or to remote channels, and reporting to the job manager. Deploy, start,
 * checkpoint and cancel calls come from the task manager's control thread. The attempt owns its job
 * code and closes it when released.
 */
final class TaskManagerAttempt implements TaskListener, CheckpointResponder {
  private static final int BATCH_SIZE = 512;

  private final AttemptId attempt;
  private final ControlMessages.DeployTasks deploy;
  private final JobCode code;
  private final Consumer<TaskManagerAttempt> onTerminated;
  private final AtomicInteger terminated = new AtomicInteger();
  private final String taskManagerId;
  private final RpcConnection jobManager;
  private final InboundGates inbound;
  private final OutboundChannels outbound;
  private final Executor snapshotExecutor;
  // Written while deploying, read by the heartbeat thread for progress.
  private final List<StreamTask> tasks = new CopyOnWriteArrayList<>();
  private final List<SourceStreamTask> sources = new ArrayList<>();
  private final Map<String, SubtaskPlacement> placements = new HashMap<>();
  private RoutingCheckpointStorage storage;

  /**
   * @param onTerminated called (on a task thread) once every subtask terminated normally
   */
  TaskManagerAttempt(
      ControlMessages.DeployTasks deploy,
      JobCode code,
      String taskManagerId,
      RpcConnection jobManager,
      InboundGates inbound,
      OutboundChannels outbound,
      Executor snapshotExecutor,
      Consumer<TaskManagerAttempt> onTerminated) {
    this.attempt = deploy.attempt();
    this.deploy = deploy;
    this.code = code;
    this.onTerminated = onTerminated;
    this.taskManagerId = taskManagerId;
    this.jobManager = jobManager;
    this.inbound = inbound;
    this.outbound = outbound;
    this.snapshotExecutor = snapshotExecutor;
    for (SubtaskPlacement placement : deploy.placements()) {
      placements.put(key(placement.vertexId(), placement.subtask()), placement);
    }
  }

  private static String key(String vertexId, int subtask) {
    return vertexId + "/" + subtask;
  }

  private boolean isLocal(JobVertex vertex, int subtask) {
    return placements.get(key(vertex.id(), subtask)).taskManagerId().equals(taskManagerId);
  }

  RecordCounts recordCounts() {
    return RecordCounts.of(tasks);
  }

  AttemptId id() {
    return attempt;
  }

  /**
   * Creates this task manager's subtasks and their gates; nothing runs yet. The job's class loader
   * is the context class loader meanwhile: the task threads created here inherit it, and the gates
   * decode arriving records with it.
   */
  void deploy() throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(code.loader());
    try {
      createSubtasks();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private void createSubtasks() throws Exception {
    StreamPlan plan = JobPlans.capture(deploy.submission(), code);
    JobGraph graph = JobGraphBuilder.build(plan);
    Path checkpointRoot = graph.config().checkpointDirectory();
    storage =
        new RoutingCheckpointStorage(
            new TaskManagerStateStorage(checkpointRoot.resolve(graph.jobName())));
    CompletedCheckpoint restored =
        deploy.restorePath() == null ? null : CheckpointLoader.load(Path.of(deploy.restorePath()));
    Map<String, List<BatchReceiver>> receivers = new HashMap<>();
    Map<String, InputGate> gates = new HashMap<>();
    for (JobVertex vertex : graph.vertices()) {
      int channels = graph.inputsOf(vertex).stream().mapToInt(e -> e.source().parallelism()).sum();
      for (int i = 0; i < vertex.parallelism(); i++) {
        if (!vertex.isSource() && isLocal(vertex, i)) {
          InputGate gate = new InputGate(channels, Math.max(8, 2 * channels));
          gates.put(key(vertex.id(), i), gate);
          inbound.register(attempt, vertex.id(), i, gate);
        }
      }
    }
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        if (isLocal(vertex, i)) {
          createTask(graph, vertex, i, restored, gates, outputsOf(graph, vertex, i, gates));
        }
      }
    }
  }

  private void createTask(
      JobGraph graph,
      JobVertex vertex,
      int subtask,
      CompletedCheckpoint restored,
      Map<String, InputGate> gates,
      List<OutputEdge> outputs) {
    TaskDeployment deployment =
        new TaskDeployment(
            graph.jobName(),
            vertex,
            subtask,
            attempt.attempt(),
            graph.config(),
            StateAssigner.statesFor(restored, vertex, subtask, graph.config().maxParallelism()),
            restored == null ? OptionalLong.empty() : OptionalLong.of(restored.checkpointId()),
            gates.get(key(vertex.id(), subtask)),
            outputs,
            storage,
            this,
            this,
            snapshotExecutor,
            Clock.systemUTC());
    StreamTask task =
        vertex.isSource() ? new SourceStreamTask(deployment) : new OneInputStreamTask(deployment);
    tasks.add(task);
    if (task instanceof SourceStreamTask source) {
      sources.add(source);
    }
  }

  private List<OutputEdge> outputsOf(
      JobGraph graph, JobVertex vertex, int subtask, Map<String, InputGate> gates)
      throws Exception {
    List<OutputEdge> outputs = new ArrayList<>();
    for (JobEdge edge : graph.outputsOf(vertex)) {
      JobVertex target = edge.target();
      int channel = channelOffset(graph, edge) + subtask;
      List<BatchReceiver> receivers = new ArrayList<>();
      for (int t = 0; t < target.parallelism(); t++) {
        if (isLocal(target, t)) {
          receivers.add(gates.get(key(target.id(), t)));
        } else {
          SubtaskPlacement placement = placements.get(key(target.id(), t));
          receivers.add(outbound.channel(placement.dataAddress(), target.id(), t, channel));
        }
      }
      RecordWriter writer =
          new RecordWriter(selectorOf(graph, edge, subtask), receivers, channel, BATCH_SIZE);
      outputs.add(new OutputEdge(writer, edge.sideOutput()));
    }
    return outputs;
  }

  /** The first channel of {@code edge} in its target's gate: the inputs are laid out in order. */
  private static int channelOffset(JobGraph graph, JobEdge edge) {
    int offset = 0;
    for (JobEdge input : graph.inputsOf(edge.target())) {
      if (input == edge) {
        break;
      }
      offset += input.source().parallelism();
    }
    return offset;
  }

  private static ChannelSelector selectorOf(JobGraph graph, JobEdge edge, int subtask) {
    int targets = edge.target().parallelism();
    if (edge.partitioning() instanceof Partitioning.Hash hash) {
      return ChannelSelector.byKeyGroup(
          hash.keySelector(), graph.config().maxParallelism(), targets);
    } else if (edge.partitioning() instanceof Partitioning.Rebalance) {
      return ChannelSelector.rebalance(subtask, targets);
    }
    return ChannelSelector.forward(subtask);
  }

  void start() {
    tasks.forEach(StreamTask::start);
  }

  void triggerCheckpoint(
      long checkpointId, long timestamp, String savepointDirectory, CheckpointKind kind) {
    if (savepointDirectory != null) {
      storage.route(checkpointId, new SavepointStorage(Path.of(savepointDirectory)));
    }
    sources.forEach(source -> source.triggerCheckpoint(checkpointId, timestamp, kind));
  }

  void notifyCheckpointComplete(long checkpointId) {
    tasks.forEach(task -> task.notifyCheckpointComplete(checkpointId));
  }

  void notifyCheckpointAborted(long checkpointId) {
    storage.discard(checkpointId);
    tasks.forEach(task -> task.notifyCheckpointAborted(checkpointId));
  }

  void terminate() {
    tasks.forEach(StreamTask::terminate);
  }

  /** Stops every subtask and releases the attempt's gates and connections. */
  void cancel() throws InterruptedException {
    tasks.forEach(StreamTask::cancel);
    for (StreamTask task : tasks) {
      task.join(10_000);
    }
    release();
  }

  /** Waits for the terminated subtasks' threads to end, then releases the attempt. */
  void releaseTerminated() throws InterruptedException {
    for (StreamTask task : tasks) {
      task.join(10_000);
    }
    release();
  }

  void release() {
    inbound.unregister(attempt);
    outbound.close();
    code.close();
  }

  int taskCount() {
    return tasks.size();
  }

  private void report(StreamTask task, TaskReport.Kind kind, String cause) {
    jobManager.send(
        new TaskReport(
            attempt,
            task.deployment().vertex().id(),
            task.deployment().subtaskIndex(),
            kind,
            cause));
  }

  @Override
  public void onDataFinished(StreamTask task) {
    report(task, TaskReport.Kind.DATA_FINISHED, null);
  }

  @Override
  public void onTerminated(StreamTask task) {
    report(task, TaskReport.Kind.TERMINATED, null);
    if (terminated.incrementAndGet() == tasks.size()) {
      onTerminated.accept(this);
    }
  }

  @Override
  public void onFailure(StreamTask task, Throwable cause) {
    report(
        task,
        SuppressRestartsException.isIn(cause)
            ? TaskReport.Kind.FAILED_FOR_GOOD
            : TaskReport.Kind.FAILED,
        task.taskName() + " on " + taskManagerId + ": " + cause);
  }

  @Override
  public void acknowledge(long checkpointId, String taskId, int subtaskIndex, StateHandle state) {
    jobManager.send(
        new ControlMessages.CheckpointAcknowledged(
            attempt,
            checkpointId,
            taskId,
            subtaskIndex,
            state.file(),
            state.length(),
            state.checksum()));
  }

  @Override
  public void decline(long checkpointId, String taskId, int subtaskIndex, Throwable cause) {
    jobManager.send(
        new ControlMessages.CheckpointDeclined(
            attempt, checkpointId, taskId, subtaskIndex, String.valueOf(cause.getMessage())));
  }
}
