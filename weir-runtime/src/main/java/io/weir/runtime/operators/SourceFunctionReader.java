package io.weir.runtime.operators;

import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderOutput;
import io.weir.api.source.SourceFunction;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceSplit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a pushing {@link SourceFunction} as a {@link SourceReader}: the function's {@code run} goes
 * on a thread of its own and emits into a {@link SourceHandOff}; the task's thread takes what was
 * emitted when it polls. Two monitors, both this adapter's own: the hand-off's, held by either
 * thread only to add one record or to take them all, and the function's checkpoint lock, which the
 * task's thread takes only {@linkplain #whilePaused for its mail}.
 *
 * <p>A checkpoint must see the function's state and its emissions agree: holding the checkpoint
 * lock (the function is between two of its holds), everything it emitted first goes down the chain,
 * then the mail (the barrier's snapshot) runs. The function waits for room in the hand-off, and
 * lets a waiting task go first, only between its holds (when it asks for the lock or emits without
 * it), never inside one. After the barrier of a stop-with-savepoint the task stops polling; the
 * function soon waits for room, until the task polls again (the savepoint was aborted) or closes
 * the reader (what is left is dropped, and the savepoint's positions make the restored job read it
 * again).
 */
final class SourceFunctionReader implements SourceReader<Object, SourceSplit> {
  // Records the function may emit ahead of the task between its holds.
  private static final int ROOM = 256;
  // A function that ignores cancel must not keep a cancelled task from ending.
  private static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

  private final SourceFunction<Object> function;
  private final Object checkpointLock = new Object();
  private final Object handOffLock = new Object();
  private final Thread thread;
  // Set while the task thread waits for the checkpoint lock: the function lets it go first.
  private volatile boolean taskWaits;
  // Guarded by the hand-off lock.
  private final SourceHandOff emitted = new SourceHandOff(ROOM);
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private Throwable failure;
  private boolean finished;
  private boolean closed;
  // The task thread's own: what it took from the hand-off and emits.
  private final SourceHandOff taken = new SourceHandOff(ROOM);

  SourceFunctionReader(SourceFunction<Object> function, String threadName) {
    this.function = function;
    this.thread = new Thread(this::runFunction, threadName);
    this.thread.setDaemon(true);
  }

  /** Starts the function's thread; called once, on the task thread, after the function opened. */
  void start() {
    thread.start();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<Object> output) throws Exception {
    synchronized (handOffLock) {
      if (failure != null) {
        throw rethrowable(failure);
      }
      if (emitted.isEmpty()) {
        if (finished) {
          return InputStatus.END_OF_INPUT;
        }
        if (available.isDone()) {
          available = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
      }
      takeEmitted();
    }
    taken.emitTo(output);
    return InputStatus.MORE_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    synchronized (handOffLock) {
      return available;
    }
  }

  /**
   * Runs {@code action} on the calling (task) thread holding the function's checkpoint lock, after
   * everything the function emitted went to {@code output} (a snapshot taken in {@code action}
   * agrees with the records before the barrier), or with it kept back for a later poll when the
   * source stopped at a stop-with-savepoint's barrier.
   */
  void whilePaused(
      ReaderOutput<Object> output,
      SourceOperator.Emitted emitted,
      SourceOperator.PausedAction action)
      throws Exception {
    taskWaits = true;
    synchronized (checkpointLock) {
      taskWaits = false;
      checkpointLock.notifyAll();
      if (emitted == SourceOperator.Emitted.SENT_FIRST) {
        synchronized (handOffLock) {
          takeEmitted();
        }
        taken.emitTo(output);
      }
      action.run();
    }
  }

  /** A pushing source keeps its positions in its own state, not as splits. */
  @Override
  public List<SourceSplit> snapshotState(long checkpointId) {
    return List.of();
  }

  /** Cancels the function, drops what it emitted since the last poll, and waits for its thread. */
  @Override
  public void close() throws InterruptedException {
    synchronized (handOffLock) {
      if (closed) {
        return;
      }
      closed = true;
      handOffLock.notifyAll();
    }
    synchronized (checkpointLock) {
      checkpointLock.notifyAll();
    }
    function.cancel();
    thread.interrupt();
    thread.join(CANCEL_WAIT.toMillis());
  }

  /** Called holding the hand-off lock. */
  private void takeEmitted() {
    if (emitted.size() >= ROOM) {
      handOffLock.notifyAll();
    }
    emitted.moveTo(taken);
  }

  private static Exception rethrowable(Throwable failure) {
    if (failure instanceof Error error) {
      throw error;
    }
    return (Exception) failure;
  }

  private void runFunction() {
    Throwable thrown = null;
    try {
      function.run(new Context());
    } catch (Throwable t) {
      thrown = t;
    }
    synchronized (handOffLock) {
      if (closed) {
        return;
      }
      if (thrown != null) {
        failure = thrown;
      }
      finished = true;
      available.complete(null);
    }
  }

  /**
   * Between two holds of the function: waits while the hand-off has no room, then while the task
   * waits for the checkpoint lock (a monitor is not fair, and a function that takes the lock again
   * the moment it let it go could keep the task and its barrier out for many holds). Inside a hold
   * it does nothing: waiting there would either break the hold in two or keep the task out.
   */
  private void betweenHolds() {
    if (Thread.holdsLock(checkpointLock)) {
      return;
    }
    try {
      synchronized (handOffLock) {
        while (emitted.size() >= ROOM && !closed) {
          handOffLock.wait();
        }
        throwIfClosed();
      }
      if (taskWaits) {
        synchronized (checkpointLock) {
          while (taskWaits && !isClosed()) {
            checkpointLock.wait();
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ReaderClosed();
    }
  }

  private boolean isClosed() {
    synchronized (handOffLock) {
      return closed;
    }
  }

  /** Called holding the hand-off lock. */
  private void throwIfClosed() {
    if (closed) {
      throw new ReaderClosed();
    }
  }

  /**
   * The function's view: emissions hand over under the hand-off lock, after {@link #betweenHolds}.
   */
  private final class Context implements SourceFunction.SourceContext<Object> {
    @Override
    public void collect(Object record) {
      collectWithTimestamp(record, Long.MIN_VALUE);
    }

    @Override
    public void collectWithTimestamp(Object record, long timestamp) {
      betweenHolds();
      synchronized (handOffLock) {
        throwIfClosed();
        boolean wasEmpty = emitted.isEmpty();
        emitted.addRecord(record, timestamp);
        handedOver(wasEmpty);
      }
    }

    @Override
    public void emitWatermark(long watermark) {
      betweenHolds();
      synchronized (handOffLock) {
        throwIfClosed();
        boolean wasEmpty = emitted.isEmpty();
        emitted.addWatermark(watermark);
        handedOver(wasEmpty);
      }
    }

    @Override
    public void markAsTemporarilyIdle() {
      betweenHolds();
      synchronized (handOffLock) {
        throwIfClosed();
        boolean wasEmpty = emitted.isEmpty();
        emitted.addIdle();
        handedOver(wasEmpty);
      }
    }

    @Override
    public Object getCheckpointLock() {
      betweenHolds();
      return checkpointLock;
    }

    /** Called holding the hand-off lock. */
    private void handedOver(boolean wasEmpty) {
      if (wasEmpty) {
        available.complete(null);
      }
    }
  }

  /** Ends the function's run loop once the reader is closed. */
  private static final class ReaderClosed extends RuntimeException {
    ReaderClosed() {
      super("the source task ended", null, false, false);
    }
  }
}
