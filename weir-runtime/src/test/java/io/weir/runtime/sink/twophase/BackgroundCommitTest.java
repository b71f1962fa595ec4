package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.sink.TransactionCommitException;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of commits in the background ({@link
 * TwoPhaseCommitOptions.Builder#commitInBackground }): the task thread goes on while a transaction
 * commits, commits run in checkpoint order and once each, a transaction stays pending (and in
 * snapshots) until its commit returned, a failed commit fails the task naming checkpoint and
 * transaction, and close waits for the commits in flight.
 */
class BackgroundCommitTest {
  private final FakeTransactionalStore store = new FakeTransactionalStore();
  private final CountDownLatch commitsMayRun = new CountDownLatch(1);
  private final List<String> commitThreads = new CopyOnWriteArrayList<>();
  private final SinkHarness<String, RecordingSink> harness =
      new SinkHarness<>(
          () ->
              new RecordingSink(
                  store,
                  TwoPhaseCommitOptions.builder()
                      .commitRetries(1, Duration.ZERO)
                      .commitInBackground()
                      .build()),
          0);

  private void holdCommitsUntilReleased() {
    harness.observeCommits(
        new CommitObserver() {
          @Override
          public void beforeCommit(long checkpointId) throws Exception {
            commitThreads.add(Thread.currentThread().getName());
            assertThat(commitsMayRun.await(30, TimeUnit.SECONDS)).isTrue();
          }
        });
  }

  @AfterEach
  void releaseCommits() {
    commitsMayRun.countDown();
  }

  @Test
  void when_commitIsSlow_then_recordsGoOnAndTransactionStaysPendingUntilCommitted()
      throws Exception {
    // given: the commit of checkpoint 1 hangs
    holdCommitsUntilReleased();
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    // when
    harness.notifyComplete(1);
    harness.process("b");
    harness.snapshot(2);
    // then: the task went on, checkpoint 1's transaction is still pending
    await().until(() -> commitThreads.size() == 1);
    assertThat(commitThreads.get(0)).isNotEqualTo(Thread.currentThread().getName());
    assertThat(store.committedRecords()).isEmpty();
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L, 2L);
    // when the commit returns, the next barrier drops it from the pending ones
    commitsMayRun.countDown();
    await().until(() -> store.committedRecords().equals(List.of("a")));
    harness.snapshot(3);
    assertThat(sink.pendingCheckpointIds()).containsExactly(2L, 3L);
  }

  @Test
  void when_laterNotificationCoversEarlierCheckpoints_then_eachCommitsOnceInOrder()
      throws Exception {
    // given: transactions 1, 2, 3 pending for checkpoints 1, 2, 3
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.process("b");
    harness.snapshot(2);
    harness.process("c");
    harness.snapshot(3);
    // when: checkpoint 2 completes, then 3 (whose notification covers 1 and 2 again)
    harness.notifyComplete(2);
    harness.notifyComplete(3);
    harness.close();
    // then
    assertThat(store.calls().stream().filter(call -> call.startsWith("commit")))
        .containsExactly("commit 1", "commit 2", "commit 3");
    assertThat(store.committedRecords()).containsExactly("a", "b", "c");
    assertThat(sink.pendingCheckpointIds()).isEmpty();
  }

  @Test
  void when_snapshotTakenDuringCommitIsRestored_then_eachRecordCommittedOnce() throws Exception {
    // given: checkpoint 2 is taken while the commit of checkpoint 1 is in flight
    holdCommitsUntilReleased();
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.notifyComplete(1);
    harness.process("b");
    Snapshot second = harness.snapshot(2);
    // when: the commit returns, then the process dies and restores checkpoint 2
    commitsMayRun.countDown();
    await().until(() -> store.committedRecords().equals(List.of("a")));
    harness.crash();
    RecordingSink restored = harness.restore(second);
    // then: transaction 1 is committed again (idempotently), 2 once, nothing doubled
    assertThat(store.calls()).contains("recoverAndCommit 1", "recoverAndCommit 2");
    assertThat(store.committedRecords()).containsExactly("a", "b");
    assertThat(restored.pendingCheckpointIds()).isEmpty();
  }

  @Test
  void when_backgroundCommitFails_then_closeFailsNamingCheckpointAndTransaction() throws Exception {
    // given
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    store.failCommits(1, new IllegalStateException("broker unreachable"));
    // when
    harness.notifyComplete(1);
    // then: close waits for the commit and reports its failure; the transaction stays pending
    assertThatThrownBy(harness::close)
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining("checkpoint 1")
        .hasMessageContaining("txn-1")
        .hasMessageContaining("broker unreachable");
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L);
    assertThat(store.committedRecords()).isEmpty();
  }

  @Test
  void when_backgroundCommitFailed_then_nextBarrierFails() throws Exception {
    // given: the commit of checkpoint 1 failed
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    store.failCommits(1, new IllegalStateException("broker unreachable"));
    harness.notifyComplete(1);
    await().until(() -> store.calls().contains("commit 1"));
    // when / then: the next barrier after the failure fails the task
    await()
        .untilAsserted(
            () ->
                assertThatThrownBy(() -> harness.snapshot(2))
                    .isInstanceOf(TransactionCommitException.class)
                    .hasMessageContaining("checkpoint 1"));
  }
}
