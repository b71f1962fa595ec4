package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.sink.TwoPhaseCommitOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The task fails before the external system aborts a pending transaction for its age. */
class TransactionAgeLimitTest {
  private final FakeTransactionalStore store = new FakeTransactionalStore();
  private final MutableClock clock = new MutableClock();
  private final SinkHarness<String, RecordingSink> harness =
      new SinkHarness<>(
          () ->
              new RecordingSink(
                  store,
                  TwoPhaseCommitOptions.builder()
                      .clock(clock)
                      .transactionTimeout(Duration.ofSeconds(60), 0.5)
                      .build()),
          0);

  @Test
  void
      when_checkpointsExpireUntilAPendingTransactionNearsTheTimeout_then_theNextRecordFailsTheTask()
          throws Exception {
    // given: checkpoint 1's transaction pending, as checkpoints 1 and 2 expired
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.notifyAborted(1);
    clock.advance(Duration.ofSeconds(30));
    harness.process("b");
    harness.snapshot(2);
    harness.notifyAborted(2);
    // when: it is past 90 % of the timeout
    clock.advance(Duration.ofSeconds(25));
    // then
    assertThatThrownBy(() -> harness.process("c"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("of checkpoint 1 is 55 s old")
        .hasMessageContaining("90 % of the transaction timeout (60 s)")
        .hasMessageNotContaining("\n");
    assertThat(store.committedRecords()).isEmpty();
  }

  @Test
  void when_aCheckpointIsAbortedPastTheLimit_then_theTaskFailsAtOnce() throws Exception {
    // given
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    // when
    clock.advance(Duration.ofSeconds(55));
    // then
    assertThatThrownBy(() -> harness.notifyAborted(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("of checkpoint 1");
  }

  @Test
  void when_transactionsStayBelowTheLimit_then_checkpointsGoOn() throws Exception {
    // given
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.notifyAborted(1);
    // when
    clock.advance(Duration.ofSeconds(53));
    harness.process("b");
    harness.snapshot(2);
    harness.notifyComplete(2);
    // then
    assertThat(store.committedRecords()).containsExactly("a", "b");
  }
}
