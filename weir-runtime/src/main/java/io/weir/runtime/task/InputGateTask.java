package io.weir.runtime.task;

import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import io.weir.runtime.operators.StreamOperator;
import java.util.concurrent.TimeUnit;

/**
 * A task that reads an input gate: one thread runs the mailbox loop — mail, due timers, the next
 * batch of records and events, a flush of its outputs when the buffer timeout passed. Barriers are
 * aligned and watermarks combined over every channel of the gate, whichever input a channel belongs
 * to; subclasses say only which operator method a record of a channel goes to.
 */
public abstract class InputGateTask extends StreamTask
    implements BarrierHandler.Actions, WatermarkValve.Listener {
  private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final InputGate gate;
  private final BarrierHandler barriers;
  private final WatermarkValve valve;
  protected final StreamOperator head;
  private final String headName;
  private final Thread thread;
  private int endedChannels;
  private volatile boolean cancelled;

  protected InputGateTask(TaskDeployment deployment) {
    super(deployment);
    this.gate = deployment.gate();
    int channels = gate.channels();
    this.barriers =
        deployment.config().checkpointingMode() == CheckpointingMode.EXACTLY_ONCE
            ? new AligningBarrierHandler(channels)
            : new TrackingBarrierHandler(channels);
    this.valve = new WatermarkValve(channels, this);
    this.head = chain.head();
    this.headName = head.setup().describe();
    this.thread = new Thread(this::run, deployment.taskName());
    this.thread.setDaemon(true);
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
      chain.initializeAndOpen();
      moveTo(TaskState.RUNNING);
      deployment.listener().onRunning(this);
      loop();
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
      timers.fireDue();
      Batch batch = barriers.nextReleased();
      if (batch == null) {
        batch = gate.poll(waitNanos());
      }
      if (batch != null) {
        process(batch, 0);
      }
      long now = System.nanoTime();
      if (flushDue(now)) {
        flush(now);
      }
    }
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

  private void process(Batch batch, int from) throws Exception {
    int channel = batch.channel();
    if (barriers.isBlocked(channel)) {
      barriers.hold(from == 0 ? batch : batch.tail(from));
      return;
    }
    int size = batch.size();
    for (int i = from; i < size; i++) {
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
    }
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
  public void abortCheckpoint(long checkpointId, String reason) {
    declineCheckpoint(checkpointId, reason);
  }
}
