package io.weir.kafka;

import io.weir.api.functions.MetricGroup;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleBinaryOperator;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The figures of a subtask's Kafka clients that its operator is watched by, added as the operator's
 * gauges and read through the clients' {@code metrics()} whenever an observer asks: so they are
 * seen at Weir's metrics endpoint with no JMX reporter in the clients ({@link ClientDefaults}).
 * Each is a client-wide figure (tagged with the client id only); a sink's producers' figures are
 * summed, or their maximum taken, over the producers it holds now.
 */
public final class ClientGauges {
  private static final Set<String> CLIENT_WIDE = Set.of("client-id");

  private static final List<Figure> CONSUMER =
      List.of(
          new Figure(
              "kafka_consumer_records_lag_max",
              "consumer-fetch-manager-metrics",
              "records-lag-max"),
          new Figure(
              "kafka_consumer_fetch_latency_avg_ms",
              "consumer-fetch-manager-metrics",
              "fetch-latency-avg"),
          new Figure(
              "kafka_consumer_bytes_read",
              "consumer-fetch-manager-metrics",
              "bytes-consumed-total"));

  private static final List<Figure> PRODUCER =
      List.of(
          new Figure("kafka_producer_records_sent", "producer-metrics", "record-send-total"),
          new Figure("kafka_producer_records_failed", "producer-metrics", "record-error-total"),
          new Figure("kafka_producer_records_retried", "producer-metrics", "record-retry-total"),
          new Figure(
              "kafka_producer_request_latency_max_ms",
              "producer-metrics",
              "request-latency-max",
              Math::max));

  private ClientGauges() {}

  /** Adds the consumer's lag, fetch latency and bytes read to {@code group}. */
  public static void addConsumer(MetricGroup group, Consumer<?, ?> consumer) {
    add(group, CONSUMER, () -> List.of(consumer.metrics()));
  }

  /**
   * Adds the records sent, failed and retried by {@code producers} (the ones in use when read), and
   * their longest request, to {@code group}.
   */
  public static void addProducers(
      MetricGroup group, Supplier<? extends Collection<? extends Producer<?, ?>>> producers) {
    add(group, PRODUCER, () -> producers.get().stream().map(Producer::metrics).toList());
  }

  private static void add(
      MetricGroup group,
      List<Figure> figures,
      Supplier<List<? extends Map<MetricName, ? extends Metric>>> clients) {
    for (Figure figure : figures) {
      group.gauge(figure.gauge(), () -> figure.read(clients.get()));
    }
  }

  /**
   * One gauge: a client-wide metric of {@code group} named {@code metric}, combined over clients by
   * {@code combine}; NaN (not shown) while no client has a number for it.
   */
  private record Figure(String gauge, String group, String metric, DoubleBinaryOperator combine) {
    Figure(String gauge, String group, String metric) {
      this(gauge, group, metric, Double::sum);
    }

    double read(List<? extends Map<MetricName, ? extends Metric>> clients) {
      double combined = Double.NaN;
      for (Map<MetricName, ? extends Metric> metrics : clients) {
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
          MetricName name = entry.getKey();
          if (name.name().equals(metric)
              && name.group().equals(group)
              && name.tags().keySet().equals(CLIENT_WIDE)
              && entry.getValue().metricValue() instanceof Double value
              && !value.isNaN()
              && !value.isInfinite()) {
            combined = Double.isNaN(combined) ? value : combine.applyAsDouble(combined, value);
          }
        }
      }
      return combined;
    }
  }
}
