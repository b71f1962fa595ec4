package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import org.junit.jupiter.api.Test;

class TwoPhaseCommitLifecycleTest {
  private final FakeTransactionalStore store = new FakeTransactionalStore();
  private final SinkHarness<String, RecordingSink> harness =
      new SinkHarness<>(() -> new RecordingSink(store), 0);

  @Test
  void when_twoCheckpointsAndRestore_then_hooksAreCalledInProtocolOrder() throws Exception {
    // given: checkpoint 1 completes, checkpoint 2 is taken but its notification never arrives
    harness.start();
    harness.process("a", "b");
    harness.snapshot(1);
    harness.process("c");
    harness.notifyComplete(1);
    Snapshot second = harness.snapshot(2);
    harness.process("d");
    // when
    harness.crash();
    harness.restore(second);
    // then
    assertThat(store.calls())
        .containsExactly(
            "initializeUserContext",
            "begin 1",
            "invoke 1 a",
            "invoke 1 b",
            "preCommit 1",
            "begin 2",
            "invoke 2 c",
            "commit 1",
            "preCommit 2",
            "begin 3",
            "invoke 3 d",
            "recoverAndCommit 2",
            "recoverAndAbort 3",
            "finishRecoveringContext [2, 3] context",
            "begin 4");
    assertThat(store.committedRecords()).containsExactly("a", "b", "c");
    assertThat(store.isOpen(3)).isFalse();
  }

  @Test
  void when_restoredAfterCommit_then_recommitIsQuietAndRecordsAppearOnce() throws Exception {
    // given: checkpoint 1 completed and was committed before the crash
    harness.start();
    harness.process("a");
    Snapshot first = harness.snapshot(1);
    harness.notifyComplete(1);
    // when
    harness.crash();
    harness.restore(first);
    // then
    assertThat(store.calls()).contains("recoverAndCommit 1");
    assertThat(store.committedRecords()).containsExactly("a");
  }

  @Test
  void when_restoredTwiceFromSameSnapshot_then_eachRecordCommittedOnce() throws Exception {
    harness.start();
    harness.process("a", "b");
    Snapshot first = harness.snapshot(1);
    harness.crash();

    harness.restore(first);
    harness.process("lost with the second crash");
    harness.crash();
    harness.restore(first);

    assertThat(store.committedRecords()).containsExactly("a", "b");
  }

  @Test
  void when_closed_then_openTransactionAbortedAndNothingCommitted() throws Exception {
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.process("b");

    harness.close();

    assertThat(store.calls()).endsWith("abort 2").doesNotContain("commit 1");
    assertThat(store.committedRecords()).isEmpty();
  }

  @Test
  void when_restoredFromCheckpointOfAFreshStart_then_userContextIsKept() throws Exception {
    harness.start();
    Snapshot first = harness.snapshot(1);
    harness.crash();

    harness.restore(first);

    assertThat(store.calls())
        .containsOnlyOnce("initializeUserContext")
        .contains("finishRecoveringContext [1, 2] context");
  }
}
