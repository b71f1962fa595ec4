package io.weir.kafka;

import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * Where the Kafka clients a job makes differ from the clients' own defaults. A job makes a dozen or
 * more clients at start (transactional producers per sink subtask, a consumer and an offset
 * committer per source subtask, admin clients), on the cores its first records wait for; both
 * defaults below make each client's start cheaper, and a job's properties may set either back.
 */
public final class ClientDefaults {
  private ClientDefaults() {}

  /**
   * Sets in {@code config} what the job's properties do not already set:
   *
   * <ul>
   *   <li>{@code enable.metrics.push=false}: the push's reporter renames each metric a client
   *       registers, with regular expressions, while the client is made (fourteen producers cost
   *       0.77 s of CPU with it and 0.58 s without), and brokers without a metrics plugin, as most
   *       are, drop the pushed metrics anyway.
   *   <li>{@code metric.reporters} empty, so no JMX reporter: it registers each of a client's
   *       metrics as an MBean while the client is made, on one MBean server that every client's
   *       start contends for (a job's first commit came about 0.18 s sooner without it, on two
   *       cores). The figures a job's operators are watched by (consumer lag, fetch latency, the
   *       producers' sends, errors and retries) are read through the clients' {@code metrics()}
   *       instead and shown as the operators' gauges ({@link ClientGauges}); a job that wants the
   *       clients' MBeans sets {@code metric.reporters} to {@code
   *       org.apache.kafka.common.metrics.JmxReporter}.
   * </ul>
   */
  public static <M extends Map<? super String, ? super String>> M applyTo(M config) {
    config.putIfAbsent(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "false");
    config.putIfAbsent(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG, "");
    return config;
  }
}
