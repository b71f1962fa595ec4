package io.weir.cli.bench;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces seed records at a steady rate and notes when each was produced, so that the time until
 * it is visible committed in the output is its end-to-end latency. Runs on the caller's thread.
 */
final class PacedLoader {
  private PacedLoader() {}

  /**
   * Sends ids {@code firstId .. firstId + count - 1} to {@code topic} at {@code ratePerSecond}.
   *
   * @return the {@link System#nanoTime()} each record was sent, by id - firstId
   */
  static long[] load(String bootstrap, String topic, long firstId, int count, long ratePerSecond)
      throws InterruptedException {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.LINGER_MS_CONFIG,
            1,
            ProducerConfig.ACKS_CONFIG,
            "all");
    long[] producedNanos = new long[count];
    long started = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (int i = 0; i < count; i++) {
        long due = started + i * 1_000_000_000L / ratePerSecond;
        long wait = due - System.nanoTime();
        if (wait > 1_000_000) {
          Thread.sleep(wait / 1_000_000);
        }
        String record = SeedRecords.generate(firstId + i);
        producedNanos[i] = System.nanoTime();
        producer.send(
            new ProducerRecord<>(
                topic,
                SeedRecords.word(record).getBytes(StandardCharsets.UTF_8),
                record.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
    return producedNanos;
  }
}
