package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.kafka.testing.KafkaClusterExtension;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The start-up check of the sink's transaction timeout against three real brokers. */
class TransactionTimeoutCheckClusterTest {
  /**
   * A killed broker stays listed by the cluster until its session expires; a long session keeps it
   * listed for the whole test, as a broker cut off from the job but not from its controllers is.
   */
  @RegisterExtension
  static final KafkaClusterExtension kafka =
      new KafkaClusterExtension(
          cluster ->
              cluster.withBrokerConfig(
                  cluster
                      .brokerConfig()
                      .withBrokerProperty(TransactionTimeoutCheck.BROKER_MAXIMUM, "60000")
                      .withBrokerProperty("broker.session.timeout.ms", "300000")));

  @Test
  void when_theFirstListedBrokerIsDown_then_anotherBrokerAnswers() throws Exception {
    // given: the broker the cluster lists first is killed. It stays down: with its session
    // still open the controllers would refuse its registration, and no other test needs it.
    kafka.cluster().broker(firstListedBroker().id()).kill();

    // when / then: the answer is the brokers' maximum, not "cannot reach"
    assertThatThrownBy(
            () ->
                TransactionTimeoutCheck.check(
                    config(kafka.bootstrapServers(), Duration.ofMinutes(2))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("above the broker's transaction.max.timeout.ms (60000 ms)");
    assertThat(
            TransactionTimeoutCheck.check(config(kafka.bootstrapServers(), Duration.ofMinutes(1))))
        .isEmpty();
  }

  @Test
  void when_noBrokerCanBeReached_then_oneLineNamesEveryBootstrapBroker() {
    String addresses = "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3";

    assertThatThrownBy(
            () -> TransactionTimeoutCheck.check(config(addresses, Duration.ofMinutes(1))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot reach Kafka at " + addresses + " to check")
        .hasMessageNotContaining("\n");
  }

  private static Node firstListedBroker() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      return admin.describeCluster().nodes().get(60, TimeUnit.SECONDS).iterator().next();
    }
  }

  private static KafkaSinkConfig<String> config(String bootstrap, Duration transactionTimeout) {
    return new KafkaSinkConfig<>(
        bootstrap,
        "bar",
        KafkaRecordSerializer.utf8(),
        DeliveryGuarantee.EXACTLY_ONCE,
        "check",
        transactionTimeout,
        5,
        null,
        Map.of(),
        Duration.ofSeconds(60),
        Duration.ofSeconds(30));
  }
}
