package io.weir.api.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TransactionStatusTest {
  @Test
  void when_transactionGoesThroughTwoPhases_then_itEndsCommitted() {
    TransactionHolder<String> open = new TransactionHolder<>("txn-1", 0);

    TransactionHolder<String> committed =
        open.moveTo(TransactionStatus.PRE_COMMITTED).moveTo(TransactionStatus.COMMITTED);

    assertThat(open.status()).isEqualTo(TransactionStatus.OPEN);
    assertThat(committed.status()).isEqualTo(TransactionStatus.COMMITTED);
    assertThat(committed.handle()).isEqualTo("txn-1");
  }

  @Test
  void when_openTransactionIsCommitted_then_theIllegalMoveThrows() {
    TransactionHolder<String> open = new TransactionHolder<>("txn-2", 0);

    assertThatThrownBy(() -> open.moveTo(TransactionStatus.COMMITTED))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Transaction txn-2 cannot move from OPEN to COMMITTED");
  }

  @Test
  void when_transactionEnded_then_itMovesNoMore() {
    for (TransactionStatus end :
        new TransactionStatus[] {TransactionStatus.COMMITTED, TransactionStatus.ABORTED}) {
      for (TransactionStatus next : TransactionStatus.values()) {
        assertThat(end.canMoveTo(next)).isFalse();
      }
    }
    assertThat(TransactionStatus.PRE_COMMITTED.canMoveTo(TransactionStatus.OPEN)).isFalse();
  }
}
