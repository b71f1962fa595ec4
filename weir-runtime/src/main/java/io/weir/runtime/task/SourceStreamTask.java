package io.weir.runtime.task;

import io.weir.api.source.InputStatus;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import io.weir.runtime.operators.SourceOperator;
import io.weir.runtime.operators.SourceOperator.Emitted;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A task whose chain starts with a source. One thread runs the mailbox loop: mail (checkpoint
 * barriers, notifications, the end of the job), due timers, one poll of the source's reader, a
 * flush of its outputs when the buffer timeout passed. When the reader has nothing, the thread
 * parks until the reader's availability future completes or mail arrives, whichever comes first; a
 * barrier therefore waits for one poll at most. No lock is shared with another thread: a pushing
 * source function keeps its thread and its lock inside its adapter ({@link SourceOperator}).
 *
 * <p>After the barrier of a stop-with-savepoint the task polls no more: until the savepoint is
 * aborted (then it goes on) or the task is terminated after the savepoint's notification (then it
 * ends without end of input; the savepoint's positions make the restored job read on from there).
 */
public final class SourceStreamTask extends StreamTask {
  private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final SourceOperator source;
  private final String sourceName;
  private final Thread thread;
  private volatile boolean cancelled;
  private SourcePhase phase = SourcePhase.READING;
  private long stoppedAtCheckpoint;
  // The availability future the thread was last woken by, so each is watched once.
  private CompletableFuture<Void> watchedAvailability;

  public SourceStreamTask(TaskDeployment deployment) {
    super(deployment);
    this.source = (SourceOperator) chain.head();
    this.sourceName = source.setup().describe();
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
    LockSupport.unpark(thread);
  }

  /**
   * Starts a checkpoint: the barrier goes out between two polls of the source. Where barriers
   * overtake from the first (unaligned without an aligned timeout), a wait for room downstream ends
   * for it: the barrier overtakes what the output holds, which is stored with the snapshot and
   * handed over after the barrier.
   */
  public void triggerCheckpoint(long checkpointId, long timestamp) {
    triggerCheckpoint(checkpointId, timestamp, CheckpointKind.CHECKPOINT);
  }

  /**
   * Starts a checkpoint of {@code kind}; after the barrier of a {@link
   * CheckpointKind#STOP_SAVEPOINT} the source is not polled again unless that checkpoint is
   * aborted.
   */
  public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
    mailbox.put(
        () -> {
          performCheckpoint(new CheckpointBarrier(checkpointId, timestamp));
          if (kind.stopsSources() && phase == SourcePhase.READING) {
            phase = phase.moveTo(SourcePhase.STOPPED);
            stoppedAtCheckpoint = checkpointId;
          }
        });
    maybeWakeBlockedOutput();
  }

  /**
   * Splits from the source's enumerator: the reader takes them between two polls, as mail, after
   * the mail that reached the task before and before any later checkpoint's barrier. Mail that
   * reaches the task before it runs waits for its reader; splits that cannot be opened fail the
   * task there, before that barrier.
   */
  public void addSplits(AssignedSplits splits) {
    mailbox.put(() -> source.addSplits(splits.open()));
  }

  /**
   * The source's enumerator assigns this reader no more splits: told as mail, after the splits it
   * assigned before.
   */
  public void noMoreSplits() {
    mailbox.put(source::notifyNoMoreSplits);
  }

  /** An aborted stop-with-savepoint lets the source go on. */
  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    mailbox.put(
        () -> {
          chain.notifyCheckpointAborted(checkpointId);
          if (phase == SourcePhase.STOPPED && stoppedAtCheckpoint == checkpointId) {
            phase = phase.moveTo(SourcePhase.READING);
          }
        });
  }

  private void run() {
    try {
      initializeAndOpenChain();
      moveTo(TaskState.RUNNING);
      deployment.listener().onRunning(this);
      replayOvertakenOutput();
      loop();
      if (cancelled) {
        closeQuietly();
        return;
      }
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

  /** Runs until the task is asked to end (after its last mail ran) or is cancelled. */
  private void loop() throws Exception {
    while (!terminateRequested && !cancelled) {
      if (!mailbox.isEmpty()) {
        // Stopped at a stop-with-savepoint's barrier, what the source emitted since stays back.
        source.whilePaused(
            phase == SourcePhase.STOPPED ? Emitted.KEPT_BACK : Emitted.SENT_FIRST, mailbox::runAll);
        continue;
      }
      if (!maybeHandOverHeldOutput()) {
        continue;
      }
      timers.fireDue();
      InputStatus status = phase == SourcePhase.READING ? poll() : InputStatus.NOTHING_AVAILABLE;
      long now = System.nanoTime();
      if (flushDue(now)) {
        flush(now);
      }
      if (status == InputStatus.END_OF_INPUT) {
        endInput();
      } else if (status == InputStatus.NOTHING_AVAILABLE) {
        awaitInputOrMail();
      }
    }
  }

  private InputStatus poll() throws OperatorFailure {
    try {
      return source.pollNext();
    } catch (Exception e) {
      throw OperatorFailure.of(sourceName, e);
    }
  }

  /** The source is exhausted: event time ends, the chain ends its input, downstream is told. */
  private void endInput() throws Exception {
    phase = phase.moveTo(SourcePhase.ENDED);
    source.emitFinalWatermark();
    chain.endInput();
    output.broadcast(StreamEvent.END_OF_DATA);
    flush(System.nanoTime());
    reportDataFinished();
  }

  /**
   * Parks until the reader's availability future completes, mail arrives (its {@code put} unparks
   * this thread), the next flush or timer is due, or the task is cancelled.
   */
  private void awaitInputOrMail() {
    if (phase == SourcePhase.READING) {
      CompletableFuture<Void> available = source.isAvailable();
      if (available.isDone()) {
        return;
      }
      if (available != watchedAvailability) {
        watchedAvailability = available;
        available.whenComplete((ignored, failure) -> wakeUp());
      }
    }
    if (!mailbox.isEmpty() || cancelled) {
      return;
    }
    LockSupport.parkNanos(waitNanos());
  }

  private long waitNanos() {
    long wait = Math.min(MAX_WAIT_NANOS, nanosUntilNextFlush(System.nanoTime()));
    long nextTimer = timers.nextTime();
    if (nextTimer != Long.MAX_VALUE) {
      wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(nextTimer - deployment.clock().millis()));
    }
    return Math.max(wait, 1);
  }

  /** READING -> STOPPED -> READING (savepoint aborted); READING -> ENDED (end of input). */
  private enum SourcePhase {
    READING,
    STOPPED,
    ENDED;

    SourcePhase moveTo(SourcePhase next) {
      boolean legal =
          switch (this) {
            case READING -> next == STOPPED || next == ENDED;
            case STOPPED -> next == READING;
            case ENDED -> false;
          };
      if (!legal) {
        throw new IllegalStateException("A source task cannot move from " + this + " to " + next);
      }
      return next;
    }
  }
}
