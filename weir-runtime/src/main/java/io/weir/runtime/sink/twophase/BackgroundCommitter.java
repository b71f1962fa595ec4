package io.weir.runtime.sink.twophase;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionStatus;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Commits the pending transactions of completed checkpoints on a thread of its own, so that the
 * task thread goes on processing records while a transaction commits (a round trip to the external
 * system). One per sink subtask, made when the sink's state is initialised.
 *
 * <p>Threads and order: {@link #submit}, {@link #awaitSubmitted}, {@link #takeCommitted}, {@link
 * #maybeThrowFailure} and {@link #close} are called by the task thread only. The commits run one at
 * a time on one daemon thread, in the order submitted, which is checkpoint order; each runs the
 * {@link CommitObserver} and the {@link TransactionCommitter} (retries, timeouts) as a commit on
 * the task thread would.
 *
 * <p>Pending until taken: the sink keeps a transaction in its pending set, so in every snapshot,
 * until the task thread takes its result with {@link #takeCommitted}, which is only after its
 * commit returned. A failed commit leaves its transaction pending; the later ones are still tried,
 * and the first failure is thrown on the task thread by the next {@link #maybeThrowFailure} (at the
 * next barrier, notification or close), so the task fails naming the checkpoint and the
 * transaction, and the restore commits the transaction again.
 */
final class BackgroundCommitter<TXN> {
  /**
   * What a commit that returned left: the transaction of {@code checkpointId} in {@code status}.
   */
  record Committed(long checkpointId, TransactionStatus status) {}

  private static final long IDLE_SECONDS = 5;

  private final TransactionCommitter<TXN> committer;
  private final TransactionCommitter.CommitAction<TXN> action;
  private final CommitObserver observer;
  private final ExecutorService thread;
  private final Queue<Committed> committed = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  // Task thread only: the newest checkpoint whose transaction was handed to the commit thread.
  private long lastSubmitted = Long.MIN_VALUE;
  private boolean failureThrown;

  BackgroundCommitter(
      TransactionCommitter<TXN> committer,
      TransactionCommitter.CommitAction<TXN> action,
      CommitObserver observer,
      String threadName) {
    this.committer = committer;
    this.action = action;
    this.observer = observer;
    // One thread, so commits run one at a time in order; it ends when idle, so a sink dropped
    // without close (a crashed test harness) leaves no thread behind.
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            1,
            1,
            IDLE_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread commits = new Thread(task, threadName);
              commits.setDaemon(true);
              return commits;
            });
    executor.allowCoreThreadTimeOut(true);
    this.thread = executor;
  }

  /**
   * Hands the transaction of {@code checkpointId} to the commit thread unless it was handed over
   * before (a later notification covers the earlier checkpoints again). Ids must not decrease.
   */
  void submit(long checkpointId, TransactionHolder<TXN> holder) {
    if (checkpointId <= lastSubmitted) {
      return;
    }
    lastSubmitted = checkpointId;
    thread.execute(() -> commit(checkpointId, holder));
  }

  private void commit(long checkpointId, TransactionHolder<TXN> holder) {
    try {
      committer.maybeWarnAboutAge(checkpointId, holder);
      observer.beforeCommit(checkpointId);
      TransactionStatus status = committer.commit(checkpointId, holder, action);
      observer.afterCommit(checkpointId);
      committed.add(new Committed(checkpointId, status));
    } catch (Exception commitFailure) {
      if (!failure.compareAndSet(null, commitFailure)) {
        failure.get().addSuppressed(commitFailure);
      }
    }
  }

  /** Waits until every commit handed over so far returned (or failed). */
  void awaitSubmitted() throws InterruptedException {
    try {
      // One thread, in order: when this runs, every commit handed over before it has returned.
      thread.submit(() -> {}).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("The commit thread failed", e.getCause());
    }
  }

  /** The next commit that returned since the last call, or null. */
  Committed takeCommitted() {
    return committed.poll();
  }

  /** Throws the first commit failure, once. */
  void maybeThrowFailure() throws Exception {
    Exception first = failure.get();
    if (first != null && !failureThrown) {
      failureThrown = true;
      throw first;
    }
  }

  /**
   * Waits for every commit handed over to return and stops the commit thread. When the task thread
   * is interrupted meanwhile (the task is cancelled), the commits still running are abandoned:
   * their transactions are pending in the last checkpoint, and the restore commits them.
   */
  void close() {
    thread.shutdown();
    try {
      // A commit's own timeouts (and the committer's attempts) bound the wait.
      thread.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
