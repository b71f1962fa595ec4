package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.kafka.testing.KafkaBrokerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The exactly-once sink's start-up check of its transaction timeout against a real broker. */
class TransactionTimeoutCheckTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(
          config -> config.withBrokerProperty(TransactionTimeoutCheck.BROKER_MAXIMUM, "60000"));

  @Test
  void when_timeoutIsAboveTheBrokerMaximum_then_oneErrorNamesBothSettings() {
    KafkaSinkConfig<String> config = config(kafka.bootstrapServers(), Duration.ofMinutes(2), null);

    assertThatThrownBy(() -> TransactionTimeoutCheck.check(config))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "The transaction timeout of the Kafka sink to topic 'bar' (120000 ms) is above the"
                + " broker's transaction.max.timeout.ms (60000 ms); lower transactionTimeout(...)"
                + " or raise transaction.max.timeout.ms");
  }

  @Test
  void when_timeoutIsWithinTheMaximum_then_noError() {
    KafkaSinkConfig<String> config =
        config(kafka.bootstrapServers(), Duration.ofSeconds(60), Duration.ofSeconds(1));

    assertThat(TransactionTimeoutCheck.check(config)).isEmpty();
  }

  @Test
  void when_timeoutIsBelowTwiceTheCheckpointInterval_then_warning() {
    KafkaSinkConfig<String> config =
        config(kafka.bootstrapServers(), Duration.ofSeconds(10), Duration.ofSeconds(6));

    assertThat(TransactionTimeoutCheck.check(config))
        .hasValueSatisfying(
            warning ->
                assertThat(warning).contains("10000 ms").contains("checkpoint interval (6000 ms)"));
  }

  @Test
  void when_brokerIsUnreachable_then_errorNamesTheAddress() throws Exception {
    String address = "127.0.0.1:1";
    KafkaSinkConfig<String> config = config(address, Duration.ofSeconds(60), null);

    assertThatThrownBy(() -> TransactionTimeoutCheck.check(config))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot reach Kafka at " + address);
  }

  private static KafkaSinkConfig<String> config(
      String bootstrap, Duration transactionTimeout, Duration checkpointInterval) {
    return new KafkaSinkConfig<>(
        bootstrap,
        "bar",
        KafkaRecordSerializer.utf8(),
        DeliveryGuarantee.EXACTLY_ONCE,
        "check",
        transactionTimeout,
        5,
        checkpointInterval,
        Map.of(),
        Duration.ofSeconds(60),
        Duration.ofSeconds(30));
  }
}
