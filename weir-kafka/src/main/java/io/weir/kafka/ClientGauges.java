package io.weir.kafka;

import io.weir.api.functions.MetricGroup;
import java.util.Collection;
import java.util.HashMap;
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
 * summed, or their maximum taken, over the producers it holds now, and a count also keeps what the
 * producers it dropped had counted ({@link RetiredCounts}), so that it never steps down.
 */
public final class ClientGauges {
  private static final Set<String> CLIENT_WIDE = Set.of("client-id");

  private static final List<Figure> CONSUMER =
      List.of(
          Figure.of(
              "kafka_consumer_records_lag_max",
              "consumer-fetch-manager-metrics",
              "records-lag-max"),
          Figure.of(
              "kafka_consumer_fetch_latency_avg_ms",
              "consumer-fetch-manager-metrics",
              "fetch-latency-avg"),
          Figure.of(
              "kafka_consumer_bytes_read",
              "consumer-fetch-manager-metrics",
              "bytes-consumed-total"));

  private static final List<Figure> PRODUCER =
      List.of(
          Figure.count("kafka_producer_records_sent", "producer-metrics", "record-send-total"),
          Figure.count("kafka_producer_records_failed", "producer-metrics", "record-error-total"),
          Figure.count("kafka_producer_records_retried", "producer-metrics", "record-retry-total"),
          new Figure(
              "kafka_producer_request_latency_max_ms",
              "producer-metrics",
              "request-latency-max",
              Math::max,
              false));

  private ClientGauges() {}

  /** Adds the consumer's lag, fetch latency and bytes read to {@code group}. */
  public static void addConsumer(MetricGroup group, Consumer<?, ?> consumer) {
    for (Figure figure : CONSUMER) {
      group.gauge(figure.gauge(), () -> figure.read(List.of(consumer.metrics())));
    }
  }

  /**
   * Adds the records sent, failed and retried by a sink's producers (those in use when read, and
   * those it dropped), and the longest request of those in use, to {@code group}.
   */
  public static void addProducers(MetricGroup group, Supplier<Producers> producers) {
    for (Figure figure : PRODUCER) {
      group.gauge(figure.gauge(), () -> producers.get().read(figure));
    }
  }

  /**
   * The producers a sink subtask holds at one moment, and what the ones it dropped before had
   * counted: taken together, so that no producer is counted twice or missed while it is dropped.
   */
  public record Producers(Collection<? extends Producer<?, ?>> inUse, RetiredCounts retired) {
    /** Producers of a sink that never drops one. */
    public static Producers of(Producer<?, ?> producer) {
      return new Producers(List.of(producer), RetiredCounts.NONE);
    }

    double read(Figure figure) {
      double now = figure.read(inUse.stream().map(Producer::metrics).toList());
      if (!figure.counts()) {
        return now;
      }
      Double before = retired.counted.get(figure.gauge());
      if (before == null) {
        return now;
      }
      return Double.isNaN(now) ? before : now + before;
    }
  }

  /** What dropped producers had counted when they were dropped; immutable. */
  public static final class RetiredCounts {
    public static final RetiredCounts NONE = new RetiredCounts(Map.of());

    private final Map<String, Double> counted;

    private RetiredCounts(Map<String, Double> counted) {
      this.counted = counted;
    }

    /** These counts and those of {@code producer}, which is being dropped and sends no more. */
    public RetiredCounts plus(Producer<?, ?> producer) {
      Map<String, Double> sum = new HashMap<>(counted);
      List<Map<MetricName, ? extends Metric>> metrics = List.of(producer.metrics());
      for (Figure figure : PRODUCER) {
        double value = figure.read(metrics);
        if (figure.counts() && !Double.isNaN(value)) {
          sum.merge(figure.gauge(), value, Double::sum);
        }
      }
      return new RetiredCounts(Map.copyOf(sum));
    }
  }

  /**
   * One gauge: a client-wide metric of {@code group} named {@code metric}, combined over clients by
   * {@code combine}; NaN (not shown) while no client has a number for it. A producer's count is
   * summed and kept past its producer ({@link RetiredCounts}); a consumer is never dropped.
   */
  private record Figure(
      String gauge, String group, String metric, DoubleBinaryOperator combine, boolean counts) {
    static Figure of(String gauge, String group, String metric) {
      return new Figure(gauge, group, metric, Double::sum, false);
    }

    static Figure count(String gauge, String group, String metric) {
      return new Figure(gauge, group, metric, Double::sum, true);
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
