package io.weir.cli.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.kafka.transaction.TransactionalIds;
import io.weir.testing.OperatorHarnesses;
import io.weir.testing.OperatorTestHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The exactly-once Kafka sink fails before the broker aborts a transaction for its age. */
class KafkaSinkTransactionAgeTest {
  private static final String PREFIX = "aging";

  // A broker's start takes seconds on 2 cores, and far longer while other builds share them.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @Test
  void when_checkpointsKeepExpiring_then_theSinkFailsWhileTheBrokerStillHoldsItsTransaction()
      throws Exception {
    // given: checkpoint 1's transaction pre-committed, and checkpoint 1 expired
    String topic = "aging";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    OperatorTestHarness<String, Void> harness =
        OperatorHarnesses.<String>forSink(
                () ->
                    KafkaSink.<String>builder()
                        .bootstrapServers(kafka.bootstrapServers())
                        .topic(topic)
                        .serializer(KafkaRecordSerializer.utf8())
                        .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .transactionalIdPrefix(PREFIX)
                        .transactionTimeout(Duration.ofSeconds(20))
                        .build())
            .open();
    harness.processElement("a");
    harness.snapshot();
    harness.notifyCheckpointAborted(1);
    // when: records go on arriving and no checkpoint completes
    Exception failure =
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> failureOfNextRecord(harness), Optional::isPresent)
            .orElseThrow();
    // then: it failed naming the transaction, before the broker aborted it
    List<OpenTransaction> open = openTransactions();
    assertThat(failure)
        .hasStackTraceContaining("of checkpoint 1 is")
        .hasStackTraceContaining("90 % of the transaction timeout (20 s)");
    assertThat(open).isNotEmpty();
    harness.crash();
    try (LingeringTransactions lingering = lingering()) {
      lingering.abortMatching(TransactionalIds.of(PREFIX));
    }
  }

  private static Optional<Exception> failureOfNextRecord(
      OperatorTestHarness<String, Void> harness) {
    try {
      harness.processElement("b");
      return Optional.empty();
    } catch (Exception e) {
      return Optional.of(e);
    }
  }

  private static List<OpenTransaction> openTransactions() {
    try (LingeringTransactions lingering = lingering()) {
      return lingering.list(TransactionalIds.of(PREFIX));
    }
  }

  private static LingeringTransactions lingering() {
    return new LingeringTransactions(Map.of("bootstrap.servers", kafka.bootstrapServers()));
  }
}
