package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TwoPhaseCommitOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransactionAgeWarningTest {
  private final TwoPhaseCommitOptions options =
      TwoPhaseCommitOptions.builder().transactionTimeout(Duration.ofSeconds(100), 0.8).build();
  private final TransactionHolder<String> holder = new TransactionHolder<>("txn-7", 1_000);

  @Test
  void when_olderThanWarningRatio_then_warningNamesTransactionAndCheckpoint() {
    assertThat(TransactionCommitter.ageWarning(3, holder, options, 1_000 + 80_000))
        .hasValueSatisfying(
            warning ->
                assertThat(warning)
                    .contains("txn-7")
                    .contains("checkpoint 3")
                    .contains("80000 ms")
                    .contains("100000 ms"));
  }

  @Test
  void when_youngerThanWarningRatio_then_noWarning() {
    assertThat(TransactionCommitter.ageWarning(3, holder, options, 1_000 + 79_999)).isEmpty();
  }

  @Test
  void when_noTimeoutConfigured_then_noWarning() {
    assertThat(
            TransactionCommitter.ageWarning(
                3, holder, TwoPhaseCommitOptions.defaults(), Long.MAX_VALUE))
        .isEmpty();
  }
}
