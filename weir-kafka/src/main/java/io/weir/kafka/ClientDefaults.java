package io.weir.kafka;

import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/** Where the Kafka clients a job makes differ from the clients' own defaults. */
public final class ClientDefaults {
  private ClientDefaults() {}

  /**
   * Turns off pushing the client's metrics to the brokers ({@code enable.metrics.push}) unless the
   * job's properties set it: the push's reporter renames each metric a client registers, with
   * regular expressions, while the client is made. A job makes a dozen or more clients at start
   * (five transactional producers per sink subtask, a consumer and an offset committer per source
   * subtask: fourteen at parallelism 2); fourteen producers cost 0.77 s of CPU with it and 0.58 s
   * without. Brokers without a metrics plugin, as most are, drop the pushed metrics anyway; the
   * clients' own metrics (JMX, {@code metrics()}) stay as they are.
   */
  public static <M extends Map<? super String, ? super String>> M withoutMetricsPush(M config) {
    config.putIfAbsent(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "false");
    return config;
  }
}
