package io.weir.kafka.sink;

import io.weir.kafka.ClientDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Checks the exactly-once sink's transaction timeout against the broker before the first
 * transaction: a timeout above the broker's {@code transaction.max.timeout.ms} would make every
 * producer fail with a cryptic {@code InvalidTxnTimeoutException}, and a timeout close to the
 * checkpoint interval lets the broker abort transactions that are merely waiting for their
 * checkpoint. Runs beside the sink's start-up; one admin round trip when the first broker the
 * cluster lists answers, one more for each broker after it that does not.
 */
final class TransactionTimeoutCheck {
  static final String BROKER_MAXIMUM = "transaction.max.timeout.ms";
  private static final long ADMIN_TIMEOUT_MILLIS = 10_000;

  private TransactionTimeoutCheck() {}

  /**
   * Fails with one line naming both settings when the transaction timeout exceeds the broker's
   * maximum; returns a warning when it is shorter than twice the checkpoint interval.
   *
   * @throws IllegalStateException when the timeout is too large or the broker cannot be reached
   */
  static Optional<String> check(KafkaSinkConfig<?> config) {
    Map<String, Object> adminConfig =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            config.bootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) ADMIN_TIMEOUT_MILLIS,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            (int) ADMIN_TIMEOUT_MILLIS);
    try (Admin admin = Admin.create(ClientDefaults.applyTo(new HashMap<>(adminConfig)))) {
      return check(config, admin);
    }
  }

  /** As {@link #check(KafkaSinkConfig)}, with an admin client of the caller's. */
  static Optional<String> check(KafkaSinkConfig<?> config, Admin admin) {
    long timeoutMillis = config.transactionTimeout().toMillis();
    long maximumMillis = brokerMaximumMillis(config, admin);
    if (timeoutMillis > maximumMillis) {
      throw new IllegalStateException(
          "The transaction timeout of the Kafka sink to topic '"
              + config.topic()
              + "' ("
              + timeoutMillis
              + " ms) is above the broker's "
              + BROKER_MAXIMUM
              + " ("
              + maximumMillis
              + " ms); lower transactionTimeout(...) or raise "
              + BROKER_MAXIMUM);
    }
    return warning(config.topic(), config.transactionTimeout(), config.checkpointInterval());
  }

  static Optional<String> warning(
      String topic, Duration transactionTimeout, Duration checkpointInterval) {
    if (checkpointInterval == null
        || transactionTimeout.compareTo(checkpointInterval.multipliedBy(2)) >= 0) {
      return Optional.empty();
    }
    return Optional.of(
        "The transaction timeout of the Kafka sink to topic '"
            + topic
            + "' ("
            + transactionTimeout.toMillis()
            + " ms) is less than twice the checkpoint interval ("
            + checkpointInterval.toMillis()
            + " ms): the broker may abort transactions before their checkpoint completes, which"
            + " loses their records");
  }

  private static long brokerMaximumMillis(KafkaSinkConfig<?> config, Admin admin) {
    Collection<Node> brokers;
    try {
      brokers = admin.describeCluster().nodes().get(ADMIN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw unreachable(config, "no answer in " + ADMIN_TIMEOUT_MILLIS / 1000 + " s", e);
    } catch (ExecutionException e) {
      throw unreachable(config, String.valueOf(e.getCause().getMessage()), e.getCause());
    } catch (InterruptedException e) {
      throw interrupted(e);
    }
    // A broker of a replicated cluster may be down or cut off while the others serve; any one of
    // them knows the setting, so each is asked in turn.
    List<String> silences = new ArrayList<>();
    for (Node broker : brokers) {
      try {
        return brokerMaximumMillis(admin, broker);
      } catch (TimeoutException e) {
        silences.add(describe(broker) + ": no answer in " + ADMIN_TIMEOUT_MILLIS / 1000 + " s");
      } catch (ExecutionException e) {
        silences.add(describe(broker) + ": " + e.getCause().getMessage());
      }
    }
    throw unreachable(config, "no broker answered (" + String.join("; ", silences) + ")", null);
  }

  private static long brokerMaximumMillis(Admin admin, Node node)
      throws TimeoutException, ExecutionException {
    ConfigResource broker =
        new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(node.id()));
    Config brokerConfig;
    try {
      brokerConfig =
          admin
              .describeConfigs(
                  List.of(broker),
                  new DescribeConfigsOptions().timeoutMs((int) ADMIN_TIMEOUT_MILLIS))
              .all()
              .get(ADMIN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
              .get(broker);
    } catch (InterruptedException e) {
      throw interrupted(e);
    }
    ConfigEntry maximum = brokerConfig.get(BROKER_MAXIMUM);
    return maximum == null || maximum.value() == null
        ? Long.MAX_VALUE
        : Long.parseLong(maximum.value());
  }

  private static IllegalStateException interrupted(InterruptedException e) {
    Thread.currentThread().interrupt();
    return new IllegalStateException("Interrupted while checking the transaction timeout", e);
  }

  private static String describe(Node broker) {
    return "broker " + broker.id() + " at " + broker.host() + ":" + broker.port();
  }

  private static IllegalStateException unreachable(
      KafkaSinkConfig<?> config, String reason, Throwable cause) {
    return new IllegalStateException(
        "Cannot reach Kafka at "
            + config.bootstrapServers()
            + " to check the transaction timeout of the sink to topic '"
            + config.topic()
            + "': "
            + reason,
        cause);
  }
}
