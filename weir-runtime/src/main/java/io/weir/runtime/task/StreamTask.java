package io.weir.runtime.task;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.datastream.JobConfig;
import io.weir.api.graph.Transformation;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import io.weir.runtime.failpoint.FailpointCommitObserver;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.monitor.SubtaskMetrics;
import io.weir.runtime.operators.OperatorFactory;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.state.KeyedStateBackends;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One parallel subtask: its operator chain, its outputs, its mailbox and its part of the checkpoint
 * protocol. Subclasses decide where records come from (a source function or an input gate). Methods
 * that other threads call only put mail; operators run only on the task thread.
 */
public abstract class StreamTask {
  private static final Logger LOG = LoggerFactory.getLogger(StreamTask.class);

  protected final TaskDeployment deployment;
  protected final TaskOutput output;
  protected final TaskTimers timers;
  protected final Mailbox mailbox;
  protected final OperatorChain chain;
  protected final SubtaskMetrics metrics;
  private final long bufferTimeoutNanos;
  private long nextFlushNanos;
  // Unaligned from the first: a checkpoint that may still align keeps its barrier in line behind
  // a blocked output batch, and so does any checkpoint of a job whose barriers never overtake.
  private final boolean barrierOvertakesBlockedOutput;
  private final AtomicReference<TaskState> state = new AtomicReference<>(TaskState.CREATED);
  private final AtomicBoolean failureReported = new AtomicBoolean();
  protected volatile boolean terminateRequested;
  // Passed once the chain's start ended: what a start leaves running beside it is added by then.
  private final BesideStartWork.SubtaskStart start;

  protected StreamTask(TaskDeployment deployment) {
    this.deployment = deployment;
    this.metrics = new SubtaskMetrics(deployment.clock());
    this.output = new TaskOutput(deployment.outputs(), metrics);
    this.timers = new TaskTimers(deployment.clock());
    this.mailbox = new Mailbox(this::wakeUp);
    this.chain = new OperatorChain(buildOperators(), deployment.config().notifyOrder(), metrics);
    this.bufferTimeoutNanos = Math.max(1, deployment.config().bufferTimeout().toNanos());
    JobConfig config = deployment.config();
    this.barrierOvertakesBlockedOutput =
        config.unalignedCheckpoints()
            && config.checkpointingMode() == CheckpointingMode.EXACTLY_ONCE
            && config.alignedCheckpointTimeout().isZero();
    this.start = deployment.besideStartWork().subtaskCreated();
  }

  private List<StreamOperator> buildOperators() {
    List<Transformation> transformations = deployment.vertex().chain();
    KeyedStateBackends keyedStateBackends =
        KeyedStateBackends.forJob(
            deployment.config().stateBackend(),
            deployment.jobName(),
            deployment.storage()::snapshotFiles);
    StreamOperator[] operators = new StreamOperator[transformations.size()];
    Output next = output;
    for (int i = transformations.size() - 1; i >= 0; i--) {
      Transformation t = transformations.get(i);
      OperatorSetup setup =
          new OperatorSetup(
              t.uid(),
              t.displayName(),
              deployment.jobName(),
              deployment.subtaskIndex(),
              deployment.vertex().parallelism(),
              deployment.config().maxParallelism(),
              deployment.attempt(),
              i == 0 ? deployment.vertex().keySelector() : null,
              deployment.restoredStates().getOrDefault(t.uid(), OperatorSubtaskState.EMPTY),
              deployment.restoredCheckpointId(),
              timers,
              // The sink's commits run the job's failpoints sink.commit.*.
              new FailpointCommitObserver(deployment.failpoints(), deployment.besideStartWork()),
              keyedStateBackends,
              deployment.leaseEpoch());
      operators[i] =
          OperatorFactory.create(
              t.spec(),
              setup,
              next,
              deployment.config(),
              () -> deployment.listener().onFirstSinkRecord(this),
              deployment.splitDiscovery());
      next = new ChainedOutput(operators[i]);
    }
    return Arrays.asList(operators);
  }

  /** Watermark and checkpoint traces of this subtask, for observers. */
  public SubtaskMetrics metrics() {
    return metrics;
  }

  /** Time this subtask spent waiting for room downstream: its backpressure. */
  public long blockedOnOutputNanos() {
    return output.blockedNanos();
  }

  public TaskDeployment deployment() {
    return deployment;
  }

  public TaskState state() {
    return state.get();
  }

  public String taskName() {
    return deployment.taskName();
  }

  /** Starts the task's thread(s). */
  public abstract void start();

  /** Stops the task as soon as possible, without reporting a failure. */
  public abstract void cancel();

  /** Waits for the task's thread(s) to end. */
  public abstract void join(long millis) throws InterruptedException;

  /**
   * Asks the task to end after the job finished and its final checkpoint was notified, or after a
   * stop-with-savepoint completed: mail runs in order, so the task processes every notification put
   * before this call (its sinks commit) before it ends and reports {@code onTerminated}.
   */
  public void terminate() {
    mailbox.put(() -> terminateRequested = true);
  }

  public void notifyCheckpointComplete(long checkpointId) {
    mailbox.put(() -> chain.notifyCheckpointComplete(checkpointId));
  }

  public void notifyCheckpointAborted(long checkpointId) {
    mailbox.put(() -> chain.notifyCheckpointAborted(checkpointId));
  }

  /** Records in and out per operator, read after the task ended. */
  public List<StreamOperator> operators() {
    return new ArrayList<>(chain.operators());
  }

  protected abstract void wakeUp();

  /**
   * Ends the task thread's wait for room downstream because a checkpoint came to the task (its
   * trigger at a source, its barrier's announcement at a gate): the outputs hold the batches they
   * were blocked on, the barrier overtakes them and the snapshot stores them as records in flight.
   * Only where exactly-once checkpoints are unaligned from the first (no aligned timeout), so a
   * receiver may rely on being woken only where barriers overtake. Called by any thread.
   */
  protected void maybeWakeBlockedOutput() {
    if (barrierOvertakesBlockedOutput) {
      output.wakeBlockedSenders();
    }
  }

  /**
   * Hands over what the outputs hold since the task was asked for a checkpoint while waiting for
   * room; the task takes no new input before they are handed over.
   *
   * @return whether nothing is held any more (false: mail came meanwhile)
   */
  protected boolean maybeHandOverHeldOutput() throws Exception {
    return !output.isHolding() || output.maybeHandOverHeld();
  }

  /**
   * The subtask's start, on its thread: initialises and opens the chain, and then, whether that
   * succeeded or not, tells the attempt's {@link BesideStartWork} that nothing more is added beside
   * it from this subtask.
   */
  protected void initializeAndOpenChain() throws Exception {
    try {
      chain.initializeAndOpen();
    } finally {
      start.passed();
    }
  }

  /**
   * Takes the synchronous snapshot of the chain, forwards the barrier, and hands the write of the
   * state and the acknowledgement to the snapshot executor.
   */
  protected void performCheckpoint(CheckpointBarrier barrier) throws Exception {
    TaskSnapshot snapshot = snapshotAndForward(barrier);
    if (snapshot != null) {
      storeAndAcknowledge(barrier.checkpointId(), snapshot);
    }
  }

  /**
   * The synchronous part of a checkpoint: snapshots the chain and forwards the barrier.
   *
   * @return the snapshot, or null if an operator declined the checkpoint (declined already)
   */
  protected TaskSnapshot snapshotAndForward(CheckpointBarrier barrier) throws Exception {
    long id = barrier.checkpointId();
    metrics.aligned(id);
    TaskSnapshot snapshot;
    try {
      snapshot = chain.snapshot(id, barrier.timestamp());
    } catch (CheckpointDeclinedException e) {
      // The barrier still goes on, so that downstream tasks align as usual; the checkpoint is
      // aborted and the task keeps running.
      output.broadcast(barrier);
      LOG.warn("{} declined checkpoint {}: {}", taskName(), id, e.getMessage());
      declineCheckpoint(id, e.getMessage());
      return null;
    }
    output.broadcast(barrier);
    Map<String, List<byte[]>> overtaken = output.takeOvertaken();
    if (!overtaken.isEmpty()) {
      snapshot = withInFlight(snapshot, overtaken);
    }
    deployment.failpoints().hit(FailpointNames.TASK_SNAPSHOT_AFTER);
    return snapshot;
  }

  /**
   * The snapshot with records in flight added to the list states of the chain's head operator, as
   * the input side and the output side of an unaligned checkpoint store them.
   */
  protected TaskSnapshot withInFlight(TaskSnapshot snapshot, Map<String, List<byte[]>> inFlight) {
    String headUid = deployment.vertex().chain().get(0).uid();
    Map<String, OperatorSubtaskState> operators = new HashMap<>(snapshot.operators());
    OperatorSubtaskState head = operators.getOrDefault(headUid, OperatorSubtaskState.EMPTY);
    Map<String, List<byte[]>> listStates = new HashMap<>(head.listStates());
    listStates.putAll(inFlight);
    operators.put(
        headUid, new OperatorSubtaskState(listStates, head.unionStates(), head.keyGroups()));
    long bytes = 0;
    for (List<byte[]> elements : inFlight.values()) {
      for (byte[] element : elements) {
        bytes += element.length;
      }
    }
    metrics.inFlightStored(bytes);
    return new TaskSnapshot(operators);
  }

  /**
   * Emits again, before any new input, the records that the restored checkpoint found overtaken by
   * its barrier in this subtask's output; after a rescale, those of the old subtasks this subtask
   * takes over (old subtask index modulo the new parallelism).
   */
  protected void replayOvertakenOutput() throws Exception {
    OperatorSubtaskState restored =
        deployment.restoredStates().get(deployment.vertex().chain().get(0).uid());
    if (restored == null) {
      return;
    }
    int index = deployment.subtaskIndex();
    int parallelism = deployment.vertex().parallelism();
    output.replayOvertaken(restored.listStates(), old -> old % parallelism == index);
  }

  /** Hands the write of the snapshot and the acknowledgement to the snapshot executor. */
  protected void storeAndAcknowledge(long id, TaskSnapshot snapshot) {
    String taskId = deployment.vertex().id();
    int subtask = deployment.subtaskIndex();
    deployment
        .snapshotExecutor()
        .execute(
            () -> {
              try {
                TaskSnapshot whole = chain.materializeSnapshot(id, snapshot);
                var handle = deployment.storage().storeTaskState(id, taskId, subtask, whole);
                deployment.failpoints().hit(FailpointNames.TASK_ACK_BEFORE);
                deployment.responder().acknowledge(id, taskId, subtask, handle);
              } catch (Exception e) {
                LOG.warn("{} could not store its state of checkpoint {}", taskName(), id, e);
                deployment.responder().decline(id, taskId, subtask, e);
              }
            });
  }

  protected void declineCheckpoint(long checkpointId, String reason) {
    deployment
        .responder()
        .decline(
            checkpointId,
            deployment.vertex().id(),
            deployment.subtaskIndex(),
            new IllegalStateException(reason));
  }

  protected void moveTo(TaskState next) {
    TaskState current = state.get();
    if (!current.canMoveTo(next) || !state.compareAndSet(current, next)) {
      throw new IllegalStateException(taskName() + " cannot move from " + current + " to " + next);
    }
  }

  /** Moves to a final state unless the task is in one already. */
  protected boolean maybeMoveTo(TaskState next) {
    TaskState current = state.get();
    while (current.canMoveTo(next)) {
      if (state.compareAndSet(current, next)) {
        return true;
      }
      current = state.get();
    }
    return false;
  }

  protected void reportDataFinished() throws Exception {
    moveTo(TaskState.DATA_FINISHED);
    deployment.listener().onDataFinished(this);
  }

  /** Reports a failure once, unless the task was cancelled. */
  protected void reportFailure(Throwable cause) {
    if (state.get() == TaskState.CANCELED || !failureReported.compareAndSet(false, true)) {
      return;
    }
    maybeMoveTo(TaskState.FAILED);
    deployment.listener().onFailure(this, cause);
  }

  /**
   * Closes the chain after a failure or a cancel. The interrupt that woke the task's thread for the
   * cancel is set aside meanwhile (and restored after): the clients the functions close would
   * otherwise stop at their first wait (a Kafka producer's close throws at its last step), leaving
   * the rest open.
   */
  protected void closeQuietly() {
    boolean interrupted = Thread.interrupted();
    try {
      chain.close();
    } catch (Exception e) {
      LOG.debug("{} failed while closing after an earlier failure or a cancel", taskName(), e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  protected boolean flushDue(long nowNanos) {
    return nowNanos - nextFlushNanos >= 0;
  }

  protected void flush(long nowNanos) throws InterruptedException {
    output.flushAll();
    nextFlushNanos = nowNanos + bufferTimeoutNanos;
  }

  protected long nanosUntilNextFlush(long nowNanos) {
    return nextFlushNanos - nowNanos;
  }

  protected long bufferTimeoutNanos() {
    return bufferTimeoutNanos;
  }
}
