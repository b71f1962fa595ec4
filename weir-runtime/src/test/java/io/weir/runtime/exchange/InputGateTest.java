package io.weir.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InputGateTest {
  @Test
  void when_aDeliveryFails_then_aReaderWaitingForInputFailsWithItsCause() throws Exception {
    InputGate gate = new InputGate(1, 2);
    CompletableFuture<Batch> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return gate.poll(TimeUnit.SECONDS.toNanos(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });

    gate.failDelivery(new IOException("Cannot decode a batch for task-2 subtask 0"));

    assertThat(read)
        .failsWithin(10, TimeUnit.SECONDS)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(UndeliverableInputException.class)
        .withMessageContaining("Cannot decode a batch for task-2 subtask 0");
  }

  @Test
  void when_aDeliveryFailedAfterOtherBatches_then_theNextPollFailsToo() throws Exception {
    InputGate gate = new InputGate(1, 4);
    gate.put(Batch.of(0, new Object[] {"a"}, new long[1]));

    gate.failDelivery(new IOException("refused"));

    assertThatThrownBy(() -> gate.poll(0))
        .isInstanceOf(UndeliverableInputException.class)
        .hasMessageContaining("refused");
  }
}
