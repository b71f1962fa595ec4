package io.weir.runtime.taskexecutor;

import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.datastream.JobConfig;
import io.weir.api.graph.Partitioning;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CheckpointResponder;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.checkpoint.storage.SavepointStorage;
import io.weir.runtime.exchange.BarrierOrder;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.ChannelCredit;
import io.weir.runtime.exchange.ChannelSelector;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.gateway.SubtaskPlacement;
import io.weir.runtime.graph.JobEdge;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.startup.BesideStartStatus;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.task.AssignedSplits;
import io.weir.runtime.task.OneInputStreamTask;
import io.weir.runtime.task.OutputEdge;
import io.weir.runtime.task.SourceStreamTask;
import io.weir.runtime.task.StreamTask;
import io.weir.runtime.task.TaskDeployment;
import io.weir.runtime.task.TaskListener;
import io.weir.runtime.task.TwoInputStreamTask;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The subtasks of one attempt that run on one task manager, in one JVM or on a cluster alike:
 * created with their share of the restored checkpoint, wired to the gates of local subtasks or to
 * the exchange transport for the others, and reporting to the job manager through its gateway.
 * Start, checkpoint, terminate and cancel calls come from one thread at a time (the task manager's
 * control thread, or the job's and coordinator's threads in one JVM).
 */
public final class TaskExecutorAttempt implements TaskListener, CheckpointResponder {
  /**
   * Records per batch between tasks, the ceiling of a channel's credit: enough to amortize a
   * hand-over, small enough for latency.
   */
  private static final int BATCH_SIZE = 512;

  /**
   * Batches a gate holds: one per input channel, this many at least. No more, because a barrier
   * waits behind what the gate holds: while the code is cold, eight batches took a sink some 100
   * ms, which the first output's checkpoint waited for.
   */
  private static final int GATE_MIN_BATCHES = 4;

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
    Map<SubtaskKey, InputGate> gates = createGates();
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        if (isLocal(vertex, i)) {
          createTask(vertex, i, gates, snapshotExecutor, clock);
        }
      }
    }
  }

  private boolean isLocal(JobVertex vertex, int subtask) {
    return deployment.taskManagerOf(vertex.id(), subtask).equals(taskManagerId);
  }

  private Map<SubtaskKey, InputGate> createGates() {
    Map<SubtaskKey, InputGate> gates = new HashMap<>();
    for (JobVertex vertex : graph.vertices()) {
      List<StateSerializer<?>> serializers = serializersByChannel(vertex);
      int channels = serializers.size();
      for (int i = 0; i < vertex.parallelism(); i++) {
        if (!vertex.isSource() && isLocal(vertex, i)) {
          int capacity = Math.max(GATE_MIN_BATCHES, channels);
          ChannelCredit credit =
              ChannelCredit.adaptive(
                  graph.config().inFlightDataTarget(),
                  BATCH_SIZE,
                  capacity + sendersBatchesInFlightTo(vertex),
                  System::nanoTime);
          InputGate gate = new InputGate(channels, capacity, barrierOrder(), serializers, credit);
          gates.put(new SubtaskKey(vertex.id(), i), gate);
          exchange.registerGate(vertex.id(), i, gate, serializers);
        }
      }
    }
    return gates;
  }

  /**
   * The batches the vertex's senders may have in flight to one of its gates besides those the gate
   * holds: one per channel that a sender here fills or hands over, and per channel from another
   * task manager what the exchange lets it have on their way.
   */
  private int sendersBatchesInFlightTo(JobVertex vertex) {
    int batches = 0;
    for (JobEdge input : graph.inputsOf(vertex)) {
      JobVertex source = input.source();
      for (int i = 0; i < source.parallelism(); i++) {
        batches += isLocal(source, i) ? 1 : exchange.batchesInFlightPerRemoteChannel();
      }
    }
    return batches;
  }

  /** Barriers overtake queued records only where exactly-once checkpoints may be unaligned. */
  private BarrierOrder barrierOrder() {
    JobConfig config = graph.config();
    return config.unalignedCheckpoints()
            && config.checkpointingMode() == CheckpointingMode.EXACTLY_ONCE
        ? BarrierOrder.OVERTAKING
        : BarrierOrder.IN_LINE;
  }

  /**
   * The serializer of each input channel of the vertex's gates (null where none was declared): the
   * inputs are laid out in order, a channel per upstream subtask, as {@link #channelOffset}.
   */
  private List<StateSerializer<?>> serializersByChannel(JobVertex vertex) {
    List<StateSerializer<?>> serializers = new ArrayList<>();
    for (JobEdge input : graph.inputsOf(vertex)) {
      for (int i = 0; i < input.source().parallelism(); i++) {
        serializers.add(input.serializer());
      }
    }
    return Collections.unmodifiableList(serializers);
  }

  private void createTask(
      JobVertex vertex,
      int subtask,
      Map<SubtaskKey, InputGate> gates,
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
            gates.get(new SubtaskKey(vertex.id(), subtask)),
            outputsOf(vertex, subtask, gates),
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
      task = new TwoInputStreamTask(taskDeployment, firstInputChannels(vertex));
    } else {
      task = new OneInputStreamTask(taskDeployment);
    }
    tasks.add(task);
    if (task instanceof SourceStreamTask source) {
      sources.add(source);
    }
  }

  private List<OutputEdge> outputsOf(
      JobVertex vertex, int subtask, Map<SubtaskKey, InputGate> gates) throws Exception {
    List<OutputEdge> outputs = new ArrayList<>();
    for (JobEdge edge : graph.outputsOf(vertex)) {
      JobVertex target = edge.target();
      int channel = channelOffset(edge) + subtask;
      List<BatchReceiver> receivers = new ArrayList<>();
      for (int t = 0; t < target.parallelism(); t++) {
        if (isLocal(target, t)) {
          receivers.add(gates.get(new SubtaskKey(target.id(), t)));
        } else {
          SubtaskPlacement placement =
              new SubtaskPlacement(target.id(), t, deployment.taskManagerOf(target.id(), t));
          RecordEncoding encoding =
              new RecordEncoding(
                  edge.serializer(),
                  graph.config().javaSerializedTypes(),
                  vertex.chain().get(vertex.chain().size() - 1).displayName());
          receivers.add(exchange.channelTo(placement, channel, encoding));
        }
      }
      RecordWriter writer =
          new RecordWriter(selectorOf(edge, subtask), receivers, channel, BATCH_SIZE);
      outputs.add(
          new OutputEdge(
              writer,
              edge.sideOutput(),
              edge.serializer(),
              edge.partitioning() instanceof Partitioning.Broadcast));
    }
    return outputs;
  }

  /** The channels of a two-input vertex's gate that carry its first input: they come first. */
  private int firstInputChannels(JobVertex vertex) {
    List<JobEdge> inputs = graph.inputsOf(vertex);
    int channels = 0;
    for (int i = 0; i < vertex.firstInputs(); i++) {
      channels += inputs.get(i).source().parallelism();
    }
    return channels;
  }

  /** The first channel of {@code edge} in its target's gate: the inputs are laid out in order. */
  private int channelOffset(JobEdge edge) {
    int offset = 0;
    for (JobEdge input : graph.inputsOf(edge.target())) {
      if (input == edge) {
        break;
      }
      offset += input.source().parallelism();
    }
    return offset;
  }

  private ChannelSelector selectorOf(JobEdge edge, int subtask) {
    int targets = edge.target().parallelism();
    if (edge.partitioning() instanceof Partitioning.Hash hash) {
      return ChannelSelector.byKeyGroup(
          hash.keySelector(), graph.config().maxParallelism(), targets);
    } else if (edge.partitioning() instanceof Partitioning.Broadcast) {
      return ChannelSelector.broadcast();
    } else if (edge.partitioning() instanceof Partitioning.Rebalance) {
      return ChannelSelector.rebalance(subtask, targets);
    }
    return ChannelSelector.forward(subtask);
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
