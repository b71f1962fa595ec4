package io.weir.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.MetricGroup;
import io.weir.kafka.ClientGauges.RetiredCounts;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The clients' figures reach a subtask's gauges through metrics(), with no JMX reporter. */
class ClientGaugesTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  /** What an observer reads of the gauges a connector added. */
  private static final class Gauges implements MetricGroup {
    final Map<String, DoubleSupplier> added = new ConcurrentHashMap<>();

    @Override
    public void gauge(String name, DoubleSupplier value) {
      added.put(name, value);
    }

    Map<String, Double> read() {
      Map<String, Double> values = new TreeMap<>();
      added.forEach(
          (name, gauge) -> {
            double value = gauge.getAsDouble();
            if (!Double.isNaN(value)) {
              values.put(name, value);
            }
          });
      return values;
    }
  }

  @Test
  void when_producersSendAndAConsumerReads_then_theGaugesCountWhatTheyDid() throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "gauged", 1);
    Gauges sink = new Gauges();
    Gauges source = new Gauges();
    try (KafkaProducer<String, String> first = producer();
        KafkaProducer<String, String> second = producer()) {
      ClientGauges.addProducers(
          sink, () -> new ClientGauges.Producers(List.of(first, second), RetiredCounts.NONE));
      assertThat(sink.read()).containsEntry("kafka_producer_records_sent", 0.0);

      // when: the two producers send 3 and 4 records
      for (int i = 0; i < 3; i++) {
        first.send(new ProducerRecord<>("gauged", "a" + i)).get();
      }
      for (int i = 0; i < 4; i++) {
        second.send(new ProducerRecord<>("gauged", "b" + i)).get();
      }

      // then: summed over the producers the sink holds
      assertThat(sink.read())
          .containsEntry("kafka_producer_records_sent", 7.0)
          .containsEntry("kafka_producer_records_failed", 0.0)
          .containsEntry("kafka_producer_records_retried", 0.0)
          .containsKey("kafka_producer_request_latency_max_ms");
    }

    try (KafkaConsumer<String, String> consumer = consumer()) {
      TopicPartition partition = new TopicPartition("gauged", 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      ClientGauges.addConsumer(source, consumer);
      int read = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (read < 7 && System.nanoTime() < deadline) {
        read += consumer.poll(Duration.ofMillis(200)).count();
      }
      assertThat(read).isEqualTo(7);

      assertThat(source.read())
          .containsEntry("kafka_consumer_records_lag_max", 0.0)
          .containsKey("kafka_consumer_fetch_latency_avg_ms");
      assertThat(source.read().get("kafka_consumer_bytes_read")).isPositive();
    }
  }

  @Test
  void when_aProducerIsDropped_then_theCountsKeepWhatItSent() throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "retired", 1);
    Gauges sink = new Gauges();
    try (KafkaProducer<String, String> first = producer();
        KafkaProducer<String, String> second = producer()) {
      AtomicReference<ClientGauges.Producers> held =
          new AtomicReference<>(
              new ClientGauges.Producers(List.of(first, second), RetiredCounts.NONE));
      ClientGauges.addProducers(sink, held::get);
      for (int i = 0; i < 3; i++) {
        first.send(new ProducerRecord<>("retired", "a" + i)).get();
      }
      second.send(new ProducerRecord<>("retired", "b")).get();

      // when: the sink drops the first producer, and the second goes on sending
      held.set(new ClientGauges.Producers(List.of(second), RetiredCounts.NONE.plus(first)));
      first.close();
      assertThat(sink.read()).containsEntry("kafka_producer_records_sent", 4.0);
      second.send(new ProducerRecord<>("retired", "c")).get();

      // then: the count goes on from what both sent, and the longest request is the second's
      assertThat(sink.read())
          .containsEntry("kafka_producer_records_sent", 5.0)
          .containsEntry("kafka_producer_records_failed", 0.0);
      // The producer's own metadata requests may raise its maximum at any time: the gauge lies
      // between what the producer showed just before and just after it was read.
      double before = requestLatencyMax(second);
      double gauge = sink.read().get("kafka_producer_request_latency_max_ms");
      assertThat(gauge).isBetween(before, requestLatencyMax(second));
    }
  }

  /** The producer's own longest request, as its metrics show it. */
  private static double requestLatencyMax(KafkaProducer<?, ?> producer) {
    return (Double)
        producer.metrics().entrySet().stream()
            .filter(
                metric ->
                    metric.getKey().name().equals("request-latency-max")
                        && metric.getKey().group().equals("producer-metrics"))
            .findFirst()
            .orElseThrow()
            .getValue()
            .metricValue();
  }

  private static KafkaProducer<String, String> producer() {
    return new KafkaProducer<>(
        ClientDefaults.applyTo(KafkaTestClients.producerConfig(kafka.bootstrapServers())));
  }

  private static KafkaConsumer<String, String> consumer() {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return new KafkaConsumer<>(ClientDefaults.applyTo(config));
  }
}
