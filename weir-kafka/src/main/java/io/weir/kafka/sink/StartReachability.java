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
 * Before the recovery step touches or lists the sink's transactions: waits at most the sink's start
 * timeout for the brokers to answer, and otherwise fails the job for good with one line, as the
 * source does on a fresh start. Restarting would only wait the same way again, for ever; the open
 * transactions stay as they are until a later run settles them.
 */
final class StartReachability {
  private StartReachability() {}

  /** A restored job, about to settle the transactions its checkpoint records. */
  static void beforeRestore(KafkaSinkConfig<?> config) {
    check(
        config,
        "settle the restored transactions of the sink to topic '"
            + config.topic()
            + "' (the Kafka sink's start timeout); they stay pending until the broker's"
            + " transaction timeout: resume the job from its latest checkpoint once Kafka is"
            + " reachable");
  }

  /**
   * A job's first start without a checkpoint, about to list what an earlier run left open: a start
   * that cannot tell must not go on, as its subtasks would abort whatever is open.
   */
  static void beforeFreshStart(KafkaSinkConfig<?> config) {
    check(
        config,
        "list the transactions an earlier run of the sink to topic '"
            + config.topic()
            + "' may have left open (the Kafka sink's start timeout); nothing was aborted: start"
            + " the job again once Kafka is reachable");
  }

  /**
   * @param toWhat what the brokers are needed for, and what follows when they do not answer
   * @throws SuppressRestartsException when no broker answered within the start timeout
   */
  private static void check(KafkaSinkConfig<?> config, String toWhat) {
    long timeoutMillis = config.startTimeout().toMillis();
    // The sink's own client settings (security among them), as its transactions are listed with.
    Map<String, Object> adminConfig = new HashMap<>(config.producerConfig());
    adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
    adminConfig.put(
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeoutMillis, 10_000));
    try (Admin admin = Admin.create(ClientDefaults.applyTo(adminConfig))) {
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
              + " s to "
              + toWhat,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for Kafka", e);
    }
  }
}
