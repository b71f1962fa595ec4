package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.checkpoint.CommitObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TwoPhaseCommitNotificationTest {
  private final FakeTransactionalStore store = new FakeTransactionalStore();
  private final SinkHarness<String, RecordingSink> harness =
      new SinkHarness<>(() -> new RecordingSink(store), 0);

  @Test
  void when_notificationsOfThreeCheckpointsLost_then_latestCommitsAllInOrder() throws Exception {
    // given: transactions 1, 2, 3 pending for checkpoints 3, 4, 5
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(3);
    harness.process("b");
    harness.snapshot(4);
    harness.process("c");
    harness.snapshot(5);
    // when
    harness.notifyComplete(5);
    // then
    assertThat(store.calls()).containsSubsequence("commit 1", "commit 2", "commit 3");
    assertThat(store.committedRecords()).containsExactly("a", "b", "c");
    assertThat(sink.pendingCheckpointIds()).isEmpty();
  }

  @Test
  void when_lateNotificationAfterLaterOne_then_itIsHarmless() throws Exception {
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(3);
    harness.process("b");
    harness.snapshot(4);
    harness.process("c");
    harness.snapshot(5);
    harness.notifyComplete(5);
    List<String> callsBefore = store.calls();

    harness.notifyComplete(4);

    assertThat(store.calls()).isEqualTo(callsBefore);
    assertThat(store.committedRecords()).containsExactly("a", "b", "c");
    assertThat(sink.pendingCheckpointIds()).isEmpty();
  }

  @Test
  void when_notifiedOfEarlierCheckpoint_then_laterPendingTransactionsWait() throws Exception {
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(3);
    harness.process("b");
    harness.snapshot(4);

    harness.notifyComplete(3);

    assertThat(store.committedRecords()).containsExactly("a");
    assertThat(sink.pendingCheckpointIds()).containsExactly(4L);
  }

  @Test
  void when_notifiedWithNothingPending_then_nothingIsCommitted() throws Exception {
    harness.start();
    harness.process("a");

    harness.notifyComplete(7);

    assertThat(store.calls()).noneMatch(call -> call.startsWith("commit"));
    assertThat(store.committedRecords()).isEmpty();
  }

  @Test
  void when_checkpointAborted_then_itsTransactionCommitsWithNextCompletedOne() throws Exception {
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.notifyAborted(1);
    harness.process("b");
    harness.snapshot(2);

    assertThat(store.committedRecords()).isEmpty();
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L, 2L);

    harness.notifyComplete(2);

    assertThat(store.committedRecords()).containsExactly("a", "b");
  }

  @Test
  void when_observerInstalled_then_itSeesEachCommitOfANotification() throws Exception {
    List<String> observed = new ArrayList<>();
    harness.observeCommits(
        new CommitObserver() {
          @Override
          public void beforeCommit(long checkpointId) {
            observed.add("before " + checkpointId);
          }

          @Override
          public void afterCommit(long checkpointId) {
            observed.add("after " + checkpointId);
          }
        });
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.process("b");
    harness.snapshot(2);

    harness.notifyComplete(2);

    assertThat(observed).containsExactly("before 1", "after 1", "before 2", "after 2");
  }

  @Test
  void when_observerThrowsBeforeCommit_then_transactionStaysPending() throws Exception {
    harness.observeCommits(
        new CommitObserver() {
          @Override
          public void beforeCommit(long checkpointId) {
            throw new IllegalStateException("failpoint sink.commit.before");
          }
        });
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);

    assertThatThrownBy(() -> harness.notifyComplete(1)).hasMessageContaining("failpoint");

    assertThat(store.committedRecords()).isEmpty();
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L);
  }

  @Test
  void when_checkpointIdGoesBackwards_then_snapshotIsRefused() throws Exception {
    harness.start();
    harness.snapshot(5);

    assertThatThrownBy(() -> harness.snapshot(4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Checkpoint 4")
        .hasMessageContaining("5");
  }
}
