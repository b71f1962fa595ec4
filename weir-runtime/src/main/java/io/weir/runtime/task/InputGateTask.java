package io.weir.runtime.task;

import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.functions.KeySelector;
import io.weir.api.graph.Partitioning;
import io.weir.api.graph.Transformation;
import io.weir.runtime.exchange.BarrierOrder;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.exchange.StreamEvent.BarrierAnnouncement;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A task that reads an input gate: one thread runs the mailbox loop — mail, due timers, the next
 * batch of records and events, a flush of its outputs when the buffer timeout passed. Barriers are
 * aligned and watermarks combined over every channel of the gate, whichever input a channel belongs
 * to; subclasses say only which operator method a record of a channel goes to.
 *
 * <p>Where barriers overtake (exactly-once, unaligned checkpoints), the task looks between two
 * records of a batch whether a barrier was announced at the gate, and if so takes it before the
 * rest of the batch: the barrier handler holds the rest, counts it in flight as the gate's queued
 * batches for a checkpoint that becomes unaligned, and releases it next, ahead of newer input.
 * Where a checkpoint is unaligned from the first, a barrier announced at the gate also ends the
 * thread's wait for room downstream, as a source's trigger does ({@link #maybeWakeBlockedOutput}):
 * the task takes the barrier after the record it processes and sends it ahead of the output it was
 * blocked on, which is stored with its snapshot as records in flight.
 */
public abstract class InputGateTask extends StreamTask
    implements BarrierHandler.Actions, WatermarkValve.Listener {
  private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final InputGate gate;
  private final BarrierHandler barriers;
  // Whether a batch stops between two records for a barrier announced meanwhile.
  private final boolean takesAnnouncedBarriersMidBatch;
  private final WatermarkValve valve;
  protected final StreamOperator head;
  private final String headName;
  private final String headUid;
  private final InFlightRecords inFlightRecords;
  // The snapshot of an unaligned checkpoint, until its records in flight are captured.
  private TaskSnapshot snapshotAheadOfInFlight;
  private final Thread thread;
  private int endedChannels;
  private volatile boolean cancelled;

  /**
   * @param firstInputChannels how many of the gate's channels, from channel 0, carry the head's
   *     first input: all of them unless it reads two inputs
   */
  protected InputGateTask(TaskDeployment deployment, int firstInputChannels) {
    super(deployment);
    this.gate = deployment.gate();
    int channels = gate.channels();
    this.inFlightRecords = new InFlightRecords(gate.serializers(), firstInputChannels);
    this.barriers = barrierHandler(deployment, gate, inFlightRecords);
    this.takesAnnouncedBarriersMidBatch = barriers instanceof UnalignedBarrierHandler;
    this.valve = new WatermarkValve(channels, this);
    this.head = chain.head();
    this.headName = head.setup().describe();
    this.headUid = deployment.vertex().chain().get(0).uid();
    this.thread = new Thread(this::run, deployment.taskName());
    this.thread.setDaemon(true);
    gate.whenBarrierOvertakes(this::maybeWakeBlockedOutput);
  }

  private static BarrierHandler barrierHandler(
      TaskDeployment deployment, InputGate gate, InFlightRecords inFlightRecords) {
    if (deployment.config().checkpointingMode() != CheckpointingMode.EXACTLY_ONCE) {
      return new TrackingBarrierHandler(gate.channels());
    }
    if (gate.barrierOrder() == BarrierOrder.OVERTAKING) {
      return new UnalignedBarrierHandler(
          gate,
          inFlightRecords,
          deployment.config().alignedCheckpointTimeout(),
          deployment.clock());
    }
    return new AligningBarrierHandler(gate.channels());
  }

  @Override
  public void start() {
    thread.start();
  }

  @Override
  public void cancel() {
    cancelled = true;
    maybeMoveTo(TaskState.CANCELED);
    thread.interrupt();
  }

  @Override
  public void join(long millis) throws InterruptedException {
    thread.join(millis);
  }

  @Override
  protected void wakeUp() {
    gate.wakeUp();
  }

  private void run() {
    try {
      initializeAndOpenChain();
      moveTo(TaskState.RUNNING);
      deployment.listener().onRunning(this);
      // Emitted before the restored checkpoint's barrier, ahead of what its input in flight causes.
      replayOvertakenOutput();
      replayInFlight();
      loop();
      chain.afterLastCommit();
      chain.close();
      if (maybeMoveTo(TaskState.TERMINATED)) {
        deployment.listener().onTerminated(this);
      }
    } catch (Throwable t) {
      closeQuietly();
      if (!cancelled) {
        reportFailure(t);
      }
    }
  }

  private void loop() throws Exception {
    while (!terminateRequested) {
      if (cancelled) {
        throw new InterruptedException("cancelled");
      }
      mailbox.runAll();
      if (!maybeHandOverHeldOutput()) {
        continue;
      }
      timers.fireDue();
      barriers.maybeTimeOutAlignment(this);
      Batch batch = barriers.nextReleased();
      if (batch == null) {
        batch = gate.poll(waitNanos());
        if (batch != null && batch.value(0) instanceof BarrierAnnouncement announcement) {
          onAnnouncement(batch.channel(), announcement);
          continue;
        }
        if (batch != null) {
          barriers.onTaken(batch);
        }
      }
      if (batch != null) {
        process(batch, takesAnnouncedBarriersMidBatch);
      }
      long now = System.nanoTime();
      if (flushDue(now)) {
        flush(now);
      }
    }
  }

  /**
   * While the outputs hold batches since a barrier's announcement ended their wait for room, takes
   * the barriers announced meanwhile (their checkpoint overtakes the held batches), then hands the
   * held batches over; no record is taken from the gate before they are.
   *
   * @return whether nothing is held any more (false: another barrier came meanwhile)
   */
  @Override
  protected boolean maybeHandOverHeldOutput() throws Exception {
    if (!output.isHolding()) {
      return true;
    }
    takeAnnouncements();
    return output.maybeHandOverHeld();
  }

  /** Takes the barriers announced at the gate, without taking a queued batch. */
  private void takeAnnouncements() throws Exception {
    Batch batch;
    while ((batch = gate.pollAnnouncement()) != null) {
      onAnnouncement(batch.channel(), (BarrierAnnouncement) batch.value(0));
    }
  }

  private void onAnnouncement(int channel, BarrierAnnouncement announcement) throws Exception {
    metrics.barrierArrived(announcement.barrier().checkpointId());
    barriers.onAnnouncement(channel, announcement.barrier(), announcement.sequence(), this);
  }

  private long waitNanos() {
    if (!mailbox.isEmpty()) {
      return 0;
    }
    long now = System.nanoTime();
    long wait = Math.min(MAX_WAIT_NANOS, nanosUntilNextFlush(now));
    long nextTimer = timers.nextTime();
    if (nextTimer != Long.MAX_VALUE) {
      long untilTimer = TimeUnit.MILLISECONDS.toNanos(nextTimer - deployment.clock().millis());
      wait = Math.min(wait, untilTimer);
    }
    return Math.max(wait, 1);
  }

  /**
   * Processes a batch; holds what follows a barrier that blocks its channel, and with {@code
   * stopsForAnnouncements} the rest of the batch once a barrier is announced at the gate, whose
   * announcements it then takes.
   */
  private void process(Batch batch, boolean stopsForAnnouncements) throws Exception {
    int channel = batch.channel();
    if (barriers.isBlocked(channel)) {
      barriers.hold(batch);
      return;
    }
    int size = batch.size();
    for (int i = 0; i < size; i++) {
      Object value = batch.value(i);
      if (value instanceof StreamEvent event) {
        onEvent(channel, event);
        if (barriers.isBlocked(channel)) {
          if (i + 1 < size) {
            barriers.hold(batch.tail(i + 1));
          }
          return;
        }
      } else {
        try {
          processRecord(channel, value, batch.timestamp(i));
        } catch (Exception e) {
          throw OperatorFailure.of(headName, e);
        }
      }
      if (stopsForAnnouncements && i + 1 < size && gate.announcementWaiting()) {
        barriers.hold(batch.tail(i + 1));
        takeAnnouncements();
        return;
      }
    }
  }

  /**
   * Processes the records that the restored checkpoint found in flight, before any new input and
   * whole: their senders restart after the barrier they preceded, and a barrier announced meanwhile
   * is taken after them, as they are not queued where a checkpoint would find them in flight.
   */
  private void replayInFlight() throws Exception {
    OperatorSubtaskState restored = deployment.restoredStates().get(headUid);
    if (restored == null) {
      return;
    }
    for (Batch batch : inFlightRecords.decode(restored.listStates(), rescaledRouting())) {
      process(batch, false);
    }
  }

  /**
   * Which records in flight of an old subtask this subtask replays after a rescale: those whose key
   * is now this subtask's, or on an input without a key those of the old subtasks it takes over.
   * Records in flight on a broadcast input refuse the restore: each old subtask held its own share
   * of them, matching its own broadcast state.
   */
  private InFlightRecords.RescaledRouting rescaledRouting() {
    int index = deployment.subtaskIndex();
    int parallelism = deployment.vertex().parallelism();
    int maxParallelism = deployment.config().maxParallelism();
    return (oldSubtask, input, record) -> {
      Partitioning partitioning = partitioningOf(input);
      if (partitioning instanceof Partitioning.Hash hash) {
        @SuppressWarnings("unchecked")
        KeySelector<Object, Object> keys = (KeySelector<Object, Object>) hash.keySelector();
        return KeyGroups.subtaskOfKey(keys.getKey(record), maxParallelism, parallelism) == index;
      }
      if (partitioning instanceof Partitioning.Broadcast) {
        throw new IllegalStateException(
            headName
                + " had records in flight on a broadcast input; restore the unaligned checkpoint"
                + " with the parallelism it was taken with");
      }
      return oldSubtask % parallelism == index;
    };
  }

  /** How input 1 or 2 of the head reaches this task; the edges of an input share it. */
  private Partitioning partitioningOf(int input) {
    Transformation headTransformation = deployment.vertex().head();
    int edge = input == 1 ? 0 : deployment.vertex().firstInputs();
    return headTransformation.inputs().get(edge).partitioning();
  }

  /** Hands a record that arrived on {@code channel} to the head operator. */
  protected abstract void processRecord(int channel, Object record, long timestamp)
      throws Exception;

  private void onEvent(int channel, StreamEvent event) throws Exception {
    if (event instanceof StreamEvent.Watermark watermark) {
      valve.onWatermark(channel, watermark.timestamp());
    } else if (event instanceof StreamEvent.WatermarkStatus status) {
      valve.onStatus(channel, status.idle());
    } else if (event instanceof CheckpointBarrier barrier) {
      metrics.barrierArrived(barrier.checkpointId());
      barriers.onBarrier(channel, barrier, this);
    } else if (event instanceof StreamEvent.EndOfData) {
      onEndOfData();
    }
  }

  private void onEndOfData() throws Exception {
    if (++endedChannels == gate.channels()) {
      chain.endInput();
      output.broadcast(StreamEvent.END_OF_DATA);
      flush(System.nanoTime());
      reportDataFinished();
    }
  }

  @Override
  public void onWatermark(long watermark) throws Exception {
    head.processWatermark(watermark);
  }

  @Override
  public void onIdle(boolean idle) throws Exception {
    head.processWatermarkStatus(idle);
  }

  @Override
  public void triggerCheckpoint(CheckpointBarrier barrier) throws Exception {
    performCheckpoint(barrier);
  }

  @Override
  public boolean snapshotAheadOfInFlight(CheckpointBarrier barrier) throws Exception {
    snapshotAheadOfInFlight = snapshotAndForward(barrier);
    return snapshotAheadOfInFlight != null;
  }

  @Override
  public void completeWithInFlight(
      long checkpointId, Map<String, List<byte[]>> inFlight, long bytes) {
    TaskSnapshot snapshot = snapshotAheadOfInFlight;
    snapshotAheadOfInFlight = null;
    storeAndAcknowledge(checkpointId, withInFlight(snapshot, inFlight));
  }

  @Override
  public void abortCheckpoint(long checkpointId, String reason) {
    snapshotAheadOfInFlight = null;
    declineCheckpoint(checkpointId, reason);
  }
}
