package io.weir.cluster.taskmanager;

import io.weir.cluster.JobCode;
import io.weir.cluster.JobPlans;
import io.weir.cluster.exchange.InboundGates;
import io.weir.cluster.exchange.OutboundChannels;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.ControlMessages.SubtaskPlacement;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.cluster.rpc.SplitAssignments;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.CheckpointWriter;
import io.weir.runtime.execution.TaskViews;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.monitor.SubtaskFigures;
import io.weir.runtime.startup.BesideStartStatus;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.taskexecutor.TaskExecutorAttempt;
import io.weir.runtime.taskexecutor.TaskStateStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One job attempt on this task manager, as the network delivers it: rebuilds the job from its own
 * code, then runs its subtasks with the {@link TaskExecutorAttempt} every run uses, over the
 * network exchange and reporting to the job manager by message. Calls come from the task manager's
 * control thread. The attempt owns its job code and closes it when released.
 */
final class TaskManagerAttempt {
  // Checkpoint traces per subtask in each heartbeat: a few checkpoints happen between two of them.
  private static final int HEARTBEAT_TRACES = 4;

  private final AttemptId attempt;
  private final ControlMessages.DeployTasks deploy;
  private final JobCode code;
  private final String taskManagerId;
  private final RpcConnection jobManager;
  private final InboundGates inbound;
  private final OutboundChannels outbound;
  private final Executor snapshotExecutor;
  private final Consumer<TaskManagerAttempt> onTerminated;
  private final JobFailpoints failpoints;
  // The task manager's lease with its job manager: work beside a start begins only while valid.
  private final BooleanSupplier lease;
  // Written on deploy, read by the heartbeat thread for progress.
  private volatile TaskExecutorAttempt subtasks;

  /**
   * @param onTerminated called (on a task thread) once every subtask terminated normally
   * @param failpoints this task manager's failpoints of each job
   */
  TaskManagerAttempt(
      ControlMessages.DeployTasks deploy,
      JobCode code,
      String taskManagerId,
      RpcConnection jobManager,
      InboundGates inbound,
      OutboundChannels outbound,
      Executor snapshotExecutor,
      Consumer<TaskManagerAttempt> onTerminated,
      JobFailpoints failpoints,
      BooleanSupplier lease) {
    this.attempt = deploy.attempt();
    this.deploy = deploy;
    this.code = code;
    this.taskManagerId = taskManagerId;
    this.jobManager = jobManager;
    this.inbound = inbound;
    this.outbound = outbound;
    this.snapshotExecutor = snapshotExecutor;
    this.onTerminated = onTerminated;
    this.failpoints = failpoints;
    this.lease = lease;
  }

  RecordCounts recordCounts() {
    TaskExecutorAttempt deployed = subtasks;
    return deployed == null ? RecordCounts.NONE : deployed.recordCounts();
  }

  /**
   * Each deployed subtask's figures and its last few checkpoint traces, read without stopping it;
   * empty before the deployment.
   */
  List<SubtaskFigures> subtaskFigures() {
    TaskExecutorAttempt deployed = subtasks;
    return deployed == null ? List.of() : TaskViews.figuresOf(deployed.tasks(), HEARTBEAT_TRACES);
  }

  /** What the subtasks here may still do beside their start; STARTING before the deployment. */
  BesideStartStatus besideStartStatus() {
    TaskExecutorAttempt deployed = subtasks;
    return deployed == null ? BesideStartStatus.STARTING : deployed.besideStartStatus();
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
      subtasks = createSubtasks();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private TaskExecutorAttempt createSubtasks() throws Exception {
    JobGraph graph = JobGraphBuilder.build(JobPlans.capture(deploy.submission(), code));
    Path jobDirectory = graph.config().checkpointDirectory().resolve(graph.jobName());
    TaskStateStorage storage =
        new TaskStateStorage(
            (checkpointId, taskId, subtaskIndex, state) ->
                CheckpointWriter.writeState(
                    jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId)),
                    taskId,
                    subtaskIndex,
                    state),
            checkpointId ->
                Optional.of(
                    new SnapshotFiles(
                        CheckpointLayout.sharedDirectory(jobDirectory),
                        true,
                        jobDirectory.resolve(
                            CheckpointLayout.checkpointDirectoryName(checkpointId)))),
            jobDirectory.toString());
    CompletedCheckpoint restored =
        deploy.restorePath() == null ? null : CheckpointLoader.load(Path.of(deploy.restorePath()));
    List<io.weir.runtime.gateway.SubtaskPlacement> placements = new ArrayList<>();
    Map<String, HostAndPort> dataAddresses = new HashMap<>();
    for (SubtaskPlacement placement : deploy.placements()) {
      placements.add(
          new io.weir.runtime.gateway.SubtaskPlacement(
              placement.vertexId(), placement.subtask(), placement.taskManagerId()));
      dataAddresses.put(placement.taskManagerId(), placement.dataAddress());
    }
    return new TaskExecutorAttempt(
        taskManagerId,
        graph,
        new AttemptDeployment(attempt.attempt(), restored, placements, deploy.enumeratedSources()),
        storage,
        new NettyExchange(attempt, inbound, outbound, dataAddresses),
        new RemoteJobManager(attempt, taskManagerId, jobManager),
        snapshotExecutor,
        Clock.systemUTC(),
        () -> onTerminated.accept(this),
        failpoints.of(attempt.jobId(), graph.config()),
        new BesideStartWork(lease));
  }

  void start() {
    subtasks.start();
  }

  void triggerCheckpoint(
      long checkpointId, long timestamp, String savepointDirectory, CheckpointKind kind) {
    subtasks.triggerCheckpoint(
        checkpointId,
        timestamp,
        savepointDirectory == null ? null : Path.of(savepointDirectory),
        kind);
  }

  /**
   * Hands an enumerator's splits to one of this attempt's source subtasks as its mail. They are
   * decoded there, on the task's thread: splits that cannot be decoded fail that subtask before the
   * barrier of any later checkpoint, so no checkpoint completes whose enumerator state counts them
   * while the reader lacks them.
   *
   * @throws IllegalArgumentException when the subtask is not here (every source subtask here fails
   *     too)
   */
  void assignSplits(ControlMessages.AssignSplits assign) {
    subtasks.assignSplits(
        assign.vertexId(),
        assign.subtask(),
        () -> {
          try {
            return SplitAssignments.decode(assign.splits(), code.loader());
          } catch (IOException | ClassNotFoundException | RuntimeException e) {
            throw new IllegalStateException(
                "Cannot decode the splits assigned to subtask "
                    + assign.subtask()
                    + " of "
                    + assign.vertexId()
                    + ": "
                    + e,
                e);
          }
        });
  }

  /**
   * Tells one of this attempt's source subtasks, as its mail after the splits handed to it before,
   * that its enumerator assigns it no more.
   *
   * @throws IllegalArgumentException when the subtask is not here (every source subtask here fails
   *     too)
   */
  void signalNoMoreSplits(String vertexId, int subtask) {
    subtasks.signalNoMoreSplits(vertexId, subtask);
  }

  void notifyCheckpointComplete(long checkpointId) {
    subtasks.notifyCheckpointComplete(checkpointId);
  }

  void notifyCheckpointAborted(long checkpointId) {
    subtasks.notifyCheckpointAborted(checkpointId);
  }

  void terminate() {
    subtasks.terminate();
  }

  /** Stops every subtask and releases the attempt's gates, connections and code. */
  void cancel() throws InterruptedException {
    if (subtasks != null) {
      subtasks.cancel();
    }
    release();
  }

  /** Waits for the terminated subtasks' threads to end, then releases the attempt. */
  void releaseTerminated() throws InterruptedException {
    subtasks.awaitThreadsAndRelease();
    release();
  }

  void release() {
    inbound.unregister(attempt);
    outbound.close();
    code.close();
  }

  int taskCount() {
    TaskExecutorAttempt deployed = subtasks;
    return deployed == null ? 0 : deployed.tasks().size();
  }
}
