package io.weir.cluster.jobmanager;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.SuppressRestartsException;
import io.weir.cluster.JobCode;
import io.weir.cluster.JobPlans;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.ControlMessages.TaskReport;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointIdClaims;
import io.weir.runtime.checkpoint.CheckpointStats;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.failpoint.FailpointConfiguration;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.jobmaster.CheckpointFencing;
import io.weir.runtime.jobmaster.JobAttempt;
import io.weir.runtime.jobmaster.JobDriver;
import io.weir.runtime.jobmaster.JobState;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.monitor.SubtaskCheckpointTrace;
import io.weir.runtime.monitor.SubtaskFigures;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job on the cluster, from submission to its end: the {@link JobDriver} every run uses, with task
 * manager processes for slots. Each attempt waits until the previous one has ended on each of its
 * task managers ({@link AttemptEnding}; the first attempt of a recovered job, until what the former
 * leaders ran has ended), then until the registered task managers have enough free slots; what they
 * report (by message, tagged with the attempt) goes to the current attempt, and messages of an
 * older attempt are dropped.
 */
final class ClusterJob {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterJob.class);
  private static final int TRACED_CHECKPOINTS = 16;
  // Longer than a sink's fence can take: its admin client's call is bounded by the client's own
  // timeouts, and closing the client waits for that call.
  private static final Duration ATTEMPT_END_TIMEOUT = Duration.ofMinutes(3);

  private final JobSubmission submission;
  private final JobCode code;
  private final JobDriver driver;
  // The task managers of the current attempt, and their latest heartbeat's record counts.
  private final Map<String, RemoteTaskManager> taskManagers = new ConcurrentHashMap<>();
  private final Map<String, RecordCounts> progress = new ConcurrentHashMap<>();
  private final Map<String, List<SubtaskFigures>> subtaskFigures = new ConcurrentHashMap<>();
  // Each subtask's recent checkpoint traces, merged from the heartbeats across attempts.
  private final Map<SubtaskKey, List<SubtaskCheckpointTrace>> traces = new ConcurrentHashMap<>();
  // The task manager of each slot the current attempt runs in.
  private volatile List<String> slotOwners = List.of();
  private final CompletedCheckpoint restored;
  // How the latest attempt ends on its task managers; before the first, what a former leader ran
  // (for a recovered job) or null.
  private volatile AttemptEnding latestEnding;

  private ClusterJob(
      JobSubmission submission, JobCode code, JobDriver driver, CompletedCheckpoint restored) {
    this.submission = submission;
    this.code = code;
    this.driver = driver;
    this.restored = restored;
  }

  /**
   * Builds the job from its code and finds what it starts from. The job owns the code from then on
   * and closes it when it ends.
   *
   * @throws IllegalArgumentException or JobExecutionException with a message for the user
   */
  static ClusterJob prepare(String jobId, JobSubmission submission, JobCode code, Clock clock)
      throws JobExecutionException {
    return prepare(
        jobId,
        submission,
        code,
        clock,
        checkpoint -> {},
        () -> true,
        CheckpointIdClaims.UNSHARED,
        CheckpointFencing.LEASE);
  }

  /**
   * As above; {@code onCompleted} hears of each completed checkpoint before its notifications, and
   * {@code owner} says before each change to the job's checkpoint files whether this job manager
   * still owns them (leads); {@code checkpointIds} claims each checkpoint id before its barrier
   * goes out, above every id an earlier leader claimed; {@code fencing} says whether the job holds
   * the lease of its checkpoint directory while it runs (a lone job manager) or is fenced by the
   * leader term alone (a highly available one).
   */
  static ClusterJob prepare(
      String jobId,
      JobSubmission submission,
      JobCode code,
      Clock clock,
      CheckpointCoordinator.CompletionListener onCompleted,
      BooleanSupplier owner,
      CheckpointIdClaims checkpointIds,
      CheckpointFencing fencing)
      throws JobExecutionException {
    JobGraph graph = JobGraphBuilder.build(JobPlans.capture(submission, code));
    // A job that arms no failpoints of its own gets those of this job manager process.
    FailpointConfiguration.applyProcessConfiguration(graph.config());
    JobDriver driver = new JobDriver(jobId, graph, clock, onCompleted, fencing);
    driver.storage().guardWith(owner);
    driver.storage().claimIdsWith(checkpointIds);
    try {
      CompletedCheckpoint restored = driver.prepare().checkpoint();
      return new ClusterJob(submission, code, driver, restored);
    } catch (JobExecutionException | RuntimeException e) {
      driver.releaseLease();
      throw e;
    }
  }

  /** Gives up the lease of the job's checkpoint directory of a job that will not run. */
  void releaseLease() {
    driver.releaseLease();
  }

  String jobId() {
    return driver.jobId();
  }

  /** The checkpoint or savepoint the job starts from, or null when it starts from scratch. */
  CompletedCheckpoint restored() {
    return restored;
  }

  String jobName() {
    return driver.graph().jobName();
  }

  /** The current attempt (or the last one), or null before the first. */
  JobAttempt current() {
    return driver.current();
  }

  /**
   * Runs attempts until the job ends, restarting as the job's restart strategy says; on the job's
   * own thread.
   *
   * @param earlierWork what the first attempt waits for as later ones wait for the attempt before
   *     them (what a former leader ran, for a recovered job), or null
   */
  void run(
      TaskManagerRegistry registry, ScheduledExecutorService timer, AttemptEnding earlierWork) {
    latestEnding = earlierWork;
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(code.loader());
    try {
      driver.run(
          (attempt, needed, cancelled) -> awaitSlots(registry, attempt, needed, cancelled), timer);
      if (driver.state() == JobState.FAILED) {
        LOG.error("Job {} failed: {}", jobId(), driver.message(), driver.failure());
      }
    } finally {
      // No later attempt of this job waits for what its task managers reported.
      registry.forgetAttemptsThrough(new AttemptId(jobId(), Integer.MAX_VALUE));
      thread.setContextClassLoader(previous);
      code.close();
    }
  }

  private List<TaskManagerGateway> awaitSlots(
      TaskManagerRegistry registry, int attempt, int needed, BooleanSupplier cancelled)
      throws InterruptedException {
    AttemptEnding previous = latestEnding;
    if (previous != null && !previous.await(ATTEMPT_END_TIMEOUT, cancelled)) {
      return null;
    }
    while (!cancelled.getAsBoolean()) {
      List<RegisteredTaskManager> slots = SlotAssignment.slots(registry.live(), needed);
      if (slots != null) {
        return gatewaysOf(new AttemptId(jobId(), attempt), slots, registry);
      }
      registry.awaitSlots(needed, 1_000);
    }
    return null;
  }

  private List<TaskManagerGateway> gatewaysOf(
      AttemptId id, List<RegisteredTaskManager> slots, TaskManagerRegistry registry) {
    Map<String, RegisteredTaskManager> byId = new ConcurrentHashMap<>();
    slots.forEach(slot -> byId.put(slot.id, slot));
    taskManagers.clear();
    progress.clear();
    subtaskFigures.clear();
    slotOwners = slots.stream().map(slot -> slot.id).toList();
    latestEnding = AttemptEnding.ofAttempt(id, byId.keySet(), registry);
    List<TaskManagerGateway> gateways = new ArrayList<>();
    for (RegisteredTaskManager slot : slots) {
      gateways.add(
          taskManagers.computeIfAbsent(
              slot.id,
              taskManagerId ->
                  new RemoteTaskManager(id, slot, submission, code.jarFile(), byId::get)));
    }
    return gateways;
  }

  // ---- what the task managers report, from the job manager's network and ack threads

  /** The attempt {@code id} names, if it is the current one. */
  private JobAttempt attempt(AttemptId id) {
    JobAttempt attempt = driver.current();
    return attempt != null && attempt.number() == id.attempt() ? attempt : null;
  }

  void onDeployed(ControlMessages.TasksDeployed deployed) {
    JobAttempt attempt = attempt(deployed.attempt());
    if (attempt == null) {
      return;
    }
    RemoteTaskManager taskManager = taskManagers.get(deployed.taskManagerId());
    if (deployed.error() == null && taskManager != null) {
      taskManager.onDeployed();
    }
    attempt.tasksDeployed(
        deployed.taskManagerId(),
        deployed.error() == null ? null : new IllegalStateException(deployed.error()));
  }

  /** A task manager's subtasks of an attempt ended after its cancel. */
  void onTasksEnded(ControlMessages.TasksEnded ended) {
    AttemptEnding ending = latestEnding;
    if (ending != null) {
      ending.confirmed(ended.attempt(), ended.taskManagerId());
    }
  }

  void onReport(TaskReport report) {
    JobAttempt attempt = attempt(report.attempt());
    if (attempt == null) {
      return;
    }
    SubtaskKey subtask = new SubtaskKey(report.vertexId(), report.subtask());
    switch (report.kind()) {
      case RUNNING -> attempt.taskRunning(subtask);
      case SINK_OUTPUT_STARTED -> attempt.sinkReceivedFirstRecord(subtask);
      case DATA_FINISHED -> attempt.taskDataFinished(subtask);
      case TERMINATED -> attempt.taskTerminated(subtask);
      case FAILED ->
          attempt.taskFailed(subtask, report.vertexId(), new IllegalStateException(report.cause()));
      case FAILED_FOR_GOOD ->
          attempt.taskFailed(
              subtask, report.vertexId(), new SuppressRestartsException(report.cause(), null));
    }
  }

  void onAcknowledged(ControlMessages.CheckpointAcknowledged ack) {
    JobAttempt attempt = attempt(ack.attempt());
    if (attempt != null) {
      attempt.acknowledgeCheckpoint(
          ack.checkpointId(),
          new SubtaskKey(ack.vertexId(), ack.subtask()),
          new StateHandle(ack.file(), ack.length(), ack.checksum()));
    }
  }

  void onDeclined(ControlMessages.CheckpointDeclined decline) {
    JobAttempt attempt = attempt(decline.attempt());
    if (attempt != null) {
      attempt.declineCheckpoint(
          decline.checkpointId(),
          new SubtaskKey(decline.vertexId(), decline.subtask()),
          new IllegalStateException(decline.reason()));
    }
  }

  /** The latest record counts one task manager reported with its heartbeat. */
  void onProgress(String taskManagerId, ControlMessages.AttemptProgress counts) {
    if (attempt(counts.attempt()) != null) {
      progress.put(
          taskManagerId,
          new RecordCounts(counts.recordsIn(), counts.recordsOut(), counts.deadLetterRecords()));
      subtaskFigures.put(taskManagerId, counts.subtasks());
      for (SubtaskFigures figures : counts.subtasks()) {
        traces.merge(
            new SubtaskKey(figures.taskId(), figures.subtask().index()),
            figures.traces(),
            ClusterJob::newerTraces);
      }
    }
  }

  /** The traces of both lists, the newer one's where both have a checkpoint, the latest few. */
  private static List<SubtaskCheckpointTrace> newerTraces(
      List<SubtaskCheckpointTrace> known, List<SubtaskCheckpointTrace> arrived) {
    java.util.TreeMap<Long, SubtaskCheckpointTrace> byCheckpoint = new java.util.TreeMap<>();
    known.forEach(trace -> byCheckpoint.put(trace.checkpointId(), trace));
    arrived.forEach(trace -> byCheckpoint.put(trace.checkpointId(), trace));
    while (byCheckpoint.size() > TRACED_CHECKPOINTS) {
      byCheckpoint.pollFirstEntry();
    }
    return List.copyOf(byCheckpoint.values());
  }

  /** Each subtask's recent checkpoint traces, as its task manager's heartbeats carried them. */
  Map<SubtaskKey, List<SubtaskCheckpointTrace>> checkpointTraces() {
    return Map.copyOf(traces);
  }

  /**
   * The figures of the current attempt's subtasks, as of each task manager's latest heartbeat (the
   * last ones seen stay after the attempt ended).
   */
  List<SubtaskFigures> subtaskFigures() {
    List<SubtaskFigures> figures = new ArrayList<>();
    subtaskFigures.values().forEach(figures::addAll);
    return figures;
  }

  void onTaskManagerLost(String taskManagerId) {
    JobAttempt attempt = driver.current();
    if (attempt != null) {
      attempt.taskManagerLost(taskManagerId);
    }
  }

  // ---- the command line's requests

  CompletableFuture<Path> triggerSavepoint(Path directory) {
    return driver.triggerSavepoint(directory);
  }

  /**
   * Stops the job with a savepoint; completes with the savepoint's directory once the job has
   * ended, in state {@code endState} (FINISHED, or CANCELED for a cancel with savepoint).
   */
  CompletableFuture<Path> stopWithSavepoint(Path directory, JobState endState) {
    return driver.stopWithSavepoint(directory, endState);
  }

  void cancel() {
    driver.cancel();
  }

  /**
   * Ends the job here for a deposed leader, leaving its checkpoints to the new leader as they are.
   */
  void abandon() {
    driver.abandon();
  }

  /** The job's checkpoint directory, or null when it keeps checkpoints in memory. */
  Path checkpointDirectory() {
    Path root = driver.graph().config().checkpointDirectory();
    return root == null ? null : root.resolve(jobName());
  }

  /** The job's recent checkpoints across its attempts, newest first. */
  List<CheckpointStats> checkpointHistory() {
    return driver.history().newestFirst();
  }

  /** The task manager of each slot the job runs in; none once it ended. */
  List<String> slotOwners() {
    return driver.state().isFinal() ? List.of() : slotOwners;
  }

  JobGraph graph() {
    return driver.graph();
  }

  /** What the last recovery step proved of each pending transaction. */
  List<RecoveryView.SinkTransaction> recoveredTransactions() {
    return driver.recoveredTransactions();
  }

  int restarts() {
    return driver.restarts();
  }

  JobStatus status() {
    CompletedCheckpoint checkpoint = driver.latest();
    RecordCounts records = progress.values().stream().reduce(RecordCounts.NONE, RecordCounts::plus);
    return new JobStatus(
        jobId(),
        jobName(),
        driver.state().name(),
        driver.startMillis(),
        checkpoint == null ? -1 : checkpoint.checkpointId(),
        checkpoint == null || checkpoint.location() == null
            ? null
            : checkpoint.location().toString(),
        driver.restarts(),
        driver.message(),
        records.in(),
        records.out(),
        records.deadLetters(),
        driver.acceptedDataLoss());
  }
}
