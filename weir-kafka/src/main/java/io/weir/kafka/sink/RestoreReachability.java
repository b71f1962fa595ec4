package io.weir.kafka.sink;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.kafka.ClientDefaults;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Before the recovery step of a restored job touches the sink's transactions: waits at most the
 * sink's start timeout for the brokers to answer, and otherwise fails the job for good with one
 * line, as the source does on a fresh start. Restarting would only wait the same way again, for
 * ever; the pending transactions stay as they are until a later run settles them.
 */
final class RestoreReachability {
  private RestoreReachability() {}

  /**
   * @throws SuppressRestartsException when no broker answered within the start timeout
   */
  static void check(KafkaSinkConfig<?> config) {
    long timeoutMillis = config.startTimeout().toMillis();
    Map<String, Object> adminConfig =
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            config.bootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) timeoutMillis,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            (int) Math.min(timeoutMillis, 10_000));
    try (Admin admin = Admin.create(ClientDefaults.applyTo(new HashMap<>(adminConfig)))) {
      admin
          .describeCluster(new DescribeClusterOptions().timeoutMs((int) timeoutMillis))
          .nodes()
          .get(timeoutMillis + 1_000, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      throw new SuppressRestartsException(
          "Cannot reach Kafka at "
              + config.bootstrapServers()
              + " within "
              + config.startTimeout().toSeconds()
              + " s to settle the restored transactions of the sink to topic '"
              + config.topic()
              + "' (the Kafka sink's start timeout); they stay pending until the broker's"
              + " transaction timeout: resume the job from its latest checkpoint once Kafka is"
              + " reachable",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Kafka", e);
    }
  }
}
