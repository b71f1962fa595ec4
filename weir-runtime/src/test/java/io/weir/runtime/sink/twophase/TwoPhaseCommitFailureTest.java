package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.sink.TransactionCommitException;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.runtime.sink.twophase.RecordingSink.TransientCommitException;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TwoPhaseCommitFailureTest {
  private final FakeTransactionalStore store = new FakeTransactionalStore();
  private final MutableClock clock = new MutableClock();

  private SinkHarness<String, RecordingSink> harness(TwoPhaseCommitOptions options) {
    return new SinkHarness<>(() -> new RecordingSink(store, options), 0);
  }

  private SinkHarness<String, RecordingSink> harnessWithoutRetries() {
    return harness(
        TwoPhaseCommitOptions.builder().clock(clock).commitRetries(1, Duration.ZERO).build());
  }

  @Test
  void when_oneCommitFails_then_othersCommittedAndFirstErrorRethrown() throws Exception {
    // given: transactions 1, 2, 3 pending for checkpoints 3, 4, 5; the one of 4 fails
    SinkHarness<String, RecordingSink> harness = harnessWithoutRetries();
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(3);
    harness.process("b");
    harness.snapshot(4);
    harness.process("c");
    harness.snapshot(5);
    store.failCommits(2, new IllegalStateException("broker unreachable"));
    // when / then
    assertThatThrownBy(() -> harness.notifyComplete(5))
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining("checkpoint 4")
        .hasMessageContaining("txn-2")
        .hasMessageContaining("broker unreachable")
        .satisfies(e -> assertThat(((TransactionCommitException) e).checkpointId()).isEqualTo(4));
    assertThat(store.committedRecords()).containsExactly("a", "c");
    assertThat(sink.pendingCheckpointIds()).containsExactly(4L);
  }

  @Test
  void when_commitFailedAndTaskRestored_then_nothingLostOrDoubled() throws Exception {
    // given: the commit of checkpoint 4 failed, so the task fails over
    SinkHarness<String, RecordingSink> harness = harnessWithoutRetries();
    harness.start();
    harness.process("a");
    harness.snapshot(3);
    harness.process("b");
    harness.snapshot(4);
    harness.process("c");
    Snapshot fifth = harness.snapshot(5);
    store.failCommits(2, new IllegalStateException("broker unreachable"));
    assertThatThrownBy(() -> harness.notifyComplete(5));
    harness.crash();
    // when
    harness.restore(fifth);
    // then
    assertThat(store.calls())
        .containsSubsequence("recoverAndCommit 1", "recoverAndCommit 2", "recoverAndCommit 3");
    assertThat(store.committedRecords()).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void when_twoCommitsFail_then_laterFailureIsSuppressedInFirst() throws Exception {
    SinkHarness<String, RecordingSink> harness = harnessWithoutRetries();
    RecordingSink sink = harness.start();
    harness.snapshot(1);
    harness.snapshot(2);
    store.failCommits(1, new IllegalStateException("first"));
    store.failCommits(2, new IllegalStateException("second"));

    assertThatThrownBy(() -> harness.notifyComplete(2))
        .hasMessageContaining("first")
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1))
        .satisfies(e -> assertThat(e.getSuppressed()[0]).hasMessageContaining("second"));
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L, 2L);
  }

  @Test
  void when_retriableFailureThenSuccess_then_commitRetried() throws Exception {
    SinkHarness<String, RecordingSink> harness =
        harness(TwoPhaseCommitOptions.builder().commitRetries(3, Duration.ofMillis(1)).build());
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    store.failCommits(
        1, new TransientCommitException("blip 1"), new TransientCommitException("blip 2"));

    harness.notifyComplete(1);

    assertThat(store.calls().stream().filter("commit 1"::equals)).hasSize(3);
    assertThat(store.committedRecords()).containsExactly("a");
    assertThat(sink.pendingCheckpointIds()).isEmpty();
  }

  @Test
  void when_retriableFailurePersists_then_failsAfterMaxAttempts() throws Exception {
    SinkHarness<String, RecordingSink> harness =
        harness(TwoPhaseCommitOptions.builder().commitRetries(2, Duration.ZERO).build());
    RecordingSink sink = harness.start();
    harness.snapshot(1);
    store.failCommits(
        1, new TransientCommitException("blip 1"), new TransientCommitException("blip 2"));

    assertThatThrownBy(() -> harness.notifyComplete(1))
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining("after 2 attempts")
        .hasMessageContaining("checkpoint 1");
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L);
  }

  @Test
  void when_commitFailsAfterTransactionTimeout_then_taskFailsLoudly() throws Exception {
    SinkHarness<String, RecordingSink> harness =
        harness(
            TwoPhaseCommitOptions.builder()
                .clock(clock)
                .transactionTimeout(Duration.ofMinutes(1), 0.5)
                .build());
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    clock.advance(Duration.ofMinutes(2));
    store.failCommits(1, new IllegalStateException("transaction aborted by the broker"));

    assertThatThrownBy(() -> harness.notifyComplete(1))
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining("timed out")
        .hasMessageContaining("lost")
        .hasMessageContaining("checkpoint 1");
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L);
  }

  @Test
  void when_timedOutTransactionAndIgnoreChosen_then_transactionDropped() throws Exception {
    SinkHarness<String, RecordingSink> harness =
        harness(
            TwoPhaseCommitOptions.builder()
                .clock(clock)
                .transactionTimeout(Duration.ofMinutes(1), 0.5)
                .ignoreFailuresAfterTransactionTimeout()
                .build());
    RecordingSink sink = harness.start();
    harness.process("a");
    harness.snapshot(1);
    clock.advance(Duration.ofMinutes(2));
    store.failCommits(1, new IllegalStateException("transaction aborted by the broker"));

    harness.notifyComplete(1);

    assertThat(sink.pendingCheckpointIds()).isEmpty();
    assertThat(store.committedRecords()).isEmpty();
  }

  @Test
  void when_youngTransactionFails_then_notTreatedAsTimedOut() throws Exception {
    SinkHarness<String, RecordingSink> harness =
        harness(
            TwoPhaseCommitOptions.builder()
                .clock(clock)
                .transactionTimeout(Duration.ofMinutes(1), 0.5)
                .ignoreFailuresAfterTransactionTimeout()
                .commitRetries(1, Duration.ZERO)
                .build());
    RecordingSink sink = harness.start();
    harness.snapshot(1);
    store.failCommits(1, new IllegalStateException("disk full"));

    assertThatThrownBy(() -> harness.notifyComplete(1)).hasMessageContaining("disk full");
    assertThat(sink.pendingCheckpointIds()).containsExactly(1L);
  }

  @Test
  void when_recoverAndCommitFails_then_restoreFailsNamingCheckpoint() throws Exception {
    SinkHarness<String, RecordingSink> harness = harnessWithoutRetries();
    harness.start();
    harness.process("a");
    Snapshot first = harness.snapshot(1);
    harness.crash();
    store.failCommits(1, new IllegalStateException("broker unreachable"));

    assertThatThrownBy(() -> harness.restore(first))
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining("checkpoint 1");

    harness.restore(first);
    assertThat(store.committedRecords()).containsExactly("a");
  }
}
