package io.weir.runtime.task;

import io.weir.api.source.SourceFunction;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import io.weir.runtime.operators.OperatorException;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.SourceOperator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A task whose chain starts with a source function. The source runs on its own thread and emits
 * while holding the checkpoint lock; a mailbox thread runs checkpoints, notifications and timers
 * holding the same lock, so they happen between two of the source's emissions, never inside one.
 * Output buffers are flushed by whichever of the two holds the lock when the buffer timeout passed:
 * the source while it emits, the mailbox thread while the source is idle.
 *
 * <p>After the barrier of a stop-with-savepoint the source emits nothing more: its next emission
 * waits until the savepoint is aborted (then it goes on) or the task is terminated after the
 * savepoint's notification (then the emission is dropped and the source cancelled; the savepoint's
 * offsets make the restored job read that record again). The task then ends without end of input.
 */
public final class SourceStreamTask extends StreamTask {
  private static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  private static final long NOT_STOPPED = -1;
  // How long a source asking for the lock lets the waiting mailbox thread go first, at most.
  private static final long HAND_OFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final Object checkpointLock = new Object();
  private final SourceOperator source;
  private final Output sourceOutput;
  private final String sourceName;
  private final Thread sourceThread;
  private final Thread mailThread;
  private final CountDownLatch terminated = new CountDownLatch(1);
  private volatile boolean flushRequested;
  // Set while the mailbox thread waits for the checkpoint lock (see Context#getCheckpointLock).
  private volatile boolean mailWaitsForLock;
  private volatile boolean cancelled;
  private final AtomicBoolean failing = new AtomicBoolean();
  private boolean idle;
  // Guarded by the checkpoint lock: the stop-with-savepoint whose barrier the source emitted last.
  private long stoppedAtCheckpoint = NOT_STOPPED;

  public SourceStreamTask(TaskDeployment deployment) {
    super(deployment);
    this.source = (SourceOperator) chain.head();
    this.sourceOutput = source.output();
    this.sourceName = source.setup().describe();
    this.sourceThread = new Thread(this::run, deployment.taskName());
    this.mailThread = new Thread(this::mailLoop, deployment.taskName() + " mailbox");
    sourceThread.setDaemon(true);
    mailThread.setDaemon(true);
  }

  @Override
  public void start() {
    sourceThread.start();
  }

  @Override
  public void cancel() {
    cancelled = true;
    maybeMoveTo(TaskState.CANCELED);
    source.cancel();
    sourceThread.interrupt();
    mailThread.interrupt();
    terminated.countDown();
  }

  @Override
  public void join(long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    sourceThread.join(millis);
    mailThread.join(Math.max(1, deadline - System.currentTimeMillis()));
  }

  @Override
  protected void wakeUp() {
    LockSupport.unpark(mailThread);
  }

  /** Starts a checkpoint: the barrier goes out right after the source's current emission. */
  public void triggerCheckpoint(long checkpointId, long timestamp) {
    triggerCheckpoint(checkpointId, timestamp, CheckpointKind.CHECKPOINT);
  }

  /**
   * Starts a checkpoint of {@code kind}; after the barrier of a {@link
   * CheckpointKind#STOP_SAVEPOINT} the source emits nothing more unless that checkpoint is aborted.
   */
  public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
    mailbox.put(
        () -> {
          performCheckpoint(new CheckpointBarrier(checkpointId, timestamp));
          if (kind.stopsSources()) {
            stoppedAtCheckpoint = checkpointId;
          }
        });
  }

  /** An aborted stop-with-savepoint lets the source go on. */
  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    mailbox.put(
        () -> {
          chain.notifyCheckpointAborted(checkpointId);
          if (stoppedAtCheckpoint == checkpointId) {
            stoppedAtCheckpoint = NOT_STOPPED;
            checkpointLock.notifyAll();
          }
        });
  }

  private void run() {
    try {
      synchronized (checkpointLock) {
        chain.initializeAndOpen();
        moveTo(TaskState.RUNNING);
      }
      mailThread.start();
      deployment.listener().onRunning(this);
      try {
        source.run(new Context());
      } catch (SourceStopped stopped) {
        // terminated after a stop-with-savepoint (the emission that waited is dropped), or
        // cancelled
      } catch (Exception e) {
        if (!cancelled && !awaitStopOutcome()) {
          throw OperatorFailure.of(sourceName, e);
        }
      }
      if (cancelled) {
        closeQuietlyUnderLock();
        return;
      }
      // Stopped with a savepoint, the task ends without end of input.
      if (!awaitStopOutcome()) {
        synchronized (checkpointLock) {
          sourceOutput.emitWatermark(Long.MAX_VALUE);
          chain.endInput();
          output.broadcast(StreamEvent.END_OF_DATA);
          flush(System.nanoTime());
          reportDataFinished();
        }
      }
      closeAfterLastMail();
    } catch (Throwable t) {
      fail(t);
      if (cancelled) {
        // cancelled while it opened, or while it ended
        closeQuietlyUnderLock();
      }
    }
  }

  /**
   * Closes the chain after a failure or a cancel (a cancelled source task still closes its
   * functions, as a failed one does): between the mailbox thread's mail, under the checkpoint lock.
   */
  private void closeQuietlyUnderLock() {
    synchronized (checkpointLock) {
      closeQuietly();
    }
  }

  /**
   * When the source emitted a stop-with-savepoint's barrier, waits until the task is terminated
   * (true: it stopped) or the savepoint is aborted (false: it goes on); false at once otherwise.
   */
  private boolean awaitStopOutcome() throws InterruptedException {
    synchronized (checkpointLock) {
      while (stoppedAtCheckpoint != NOT_STOPPED && !terminateRequested && !cancelled) {
        checkpointLock.wait();
      }
      return stoppedAtCheckpoint != NOT_STOPPED;
    }
  }

  /**
   * Waits until the task is asked to end and its mailbox thread ran its last mail (the final
   * checkpoint's notification, which commits), then closes the chain and reports the task
   * terminated; a task cancelled meanwhile only closes.
   */
  private void closeAfterLastMail() throws Exception {
    terminated.await();
    mailThread.join();
    if (cancelled) {
      closeQuietlyUnderLock();
      return;
    }
    synchronized (checkpointLock) {
      chain.close();
    }
    if (maybeMoveTo(TaskState.TERMINATED)) {
      deployment.listener().onTerminated(this);
    }
  }

  private void mailLoop() {
    try {
      while (!cancelled && !terminateRequested) {
        LockSupport.parkNanos(waitNanos());
        if (Thread.interrupted() && cancelled) {
          return;
        }
        if (mailbox.isEmpty() && !sourceMissedFlushRequest()) {
          continue;
        }
        mailWaitsForLock = true;
        synchronized (checkpointLock) {
          mailWaitsForLock = false;
          mailbox.runAll();
          timers.fireDue();
          long now = System.nanoTime();
          if (flushDue(now)) {
            flush(now);
          }
          flushRequested = false;
        }
      }
    } catch (Throwable t) {
      fail(t);
    } finally {
      terminated.countDown();
      wakeStoppedSource();
    }
  }

  /** After termination a source stopped with a savepoint must leave its run loop. */
  private void wakeStoppedSource() {
    synchronized (checkpointLock) {
      if (stoppedAtCheckpoint == NOT_STOPPED) {
        return;
      }
      checkpointLock.notifyAll();
    }
    source.cancel();
  }

  /**
   * Asks the emitting source to flush and fire due timers itself, so that this thread does not
   * contend for the checkpoint lock with every emission; true when the previous request went
   * unanswered for a whole wait (the source is idle or blocked) and this thread must do it.
   */
  private boolean sourceMissedFlushRequest() {
    if (flushRequested) {
      return true;
    }
    if (flushDue(System.nanoTime()) || timers.nextTime() <= deployment.clock().millis()) {
      flushRequested = true;
    }
    return false;
  }

  private long waitNanos() {
    if (!mailbox.isEmpty()) {
      return 1;
    }
    if (flushRequested) {
      return bufferTimeoutNanos();
    }
    long wait = Math.min(MAX_WAIT_NANOS, nanosUntilNextFlush(System.nanoTime()));
    long nextTimer = timers.nextTime();
    if (nextTimer != Long.MAX_VALUE) {
      wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(nextTimer - deployment.clock().millis()));
    }
    return Math.max(wait, 1);
  }

  private void fail(Throwable t) {
    // The first of the two threads to fail reports; the other one only fails because the first
    // interrupted it, and its InterruptedException must not hide the real cause.
    if (cancelled || !failing.compareAndSet(false, true)) {
      return;
    }
    source.cancel();
    sourceThread.interrupt();
    mailThread.interrupt();
    terminated.countDown();
    closeQuietlyUnderLock();
    reportFailure(t);
  }

  /** Emits for the source function; callers hold the checkpoint lock (taken here if not). */
  private final class Context implements SourceFunction.SourceContext<Object> {
    @Override
    public void collect(Object record) {
      collectWithTimestamp(record, Long.MIN_VALUE);
    }

    @Override
    public void collectWithTimestamp(Object record, long timestamp) {
      synchronized (checkpointLock) {
        awaitNotStopped();
        try {
          if (idle) {
            idle = false;
            sourceOutput.emitWatermarkStatus(false);
          }
          sourceOutput.collect(record, timestamp);
          if (flushRequested) {
            flushRequested = false;
            timers.fireDue();
            flush(System.nanoTime());
          }
        } catch (Exception e) {
          throw OperatorException.unchecked(e);
        }
      }
    }

    @Override
    public void emitWatermark(long watermark) {
      synchronized (checkpointLock) {
        awaitNotStopped();
        try {
          sourceOutput.emitWatermark(watermark);
        } catch (Exception e) {
          throw OperatorException.unchecked(e);
        }
      }
    }

    @Override
    public void markAsTemporarilyIdle() {
      synchronized (checkpointLock) {
        awaitNotStopped();
        if (!idle) {
          idle = true;
          try {
            sourceOutput.emitWatermarkStatus(true);
          } catch (Exception e) {
            throw OperatorException.unchecked(e);
          }
        }
      }
    }

    /**
     * The lock, after the mailbox thread had it if it was waiting for it. A monitor is not fair: a
     * source that takes the lock again the moment it let it go could keep a barrier out for many
     * emissions. A source asks for the lock before each emission, when its position matches what it
     * emitted, the one moment a barrier may go out (never while the caller holds the lock: the
     * mailbox could not get it).
     */
    @Override
    public Object getCheckpointLock() {
      if (mailWaitsForLock && !Thread.holdsLock(checkpointLock)) {
        letMailboxGoFirst();
      }
      return checkpointLock;
    }

    private void letMailboxGoFirst() {
      long deadline = System.nanoTime() + HAND_OFF_NANOS;
      while (mailWaitsForLock && !cancelled && System.nanoTime() < deadline) {
        Thread.yield();
      }
    }

    /** Holds an emission back while a stop-with-savepoint is pending; called holding the lock. */
    private void awaitNotStopped() {
      try {
        if (!awaitStopOutcome()) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new SourceStopped();
    }
  }

  /** Ends the source function's run loop once the task stopped with a savepoint. */
  private static final class SourceStopped extends RuntimeException {
    SourceStopped() {
      super("stopped with a savepoint", null, false, false);
    }
  }
}
