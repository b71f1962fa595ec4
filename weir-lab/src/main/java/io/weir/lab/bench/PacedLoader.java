package io.weir.lab.bench;

import io.weir.examples.SeedRecords;
import io.weir.lab.FirstSendError;
import io.weir.lab.LabUserError;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
  /** How long a record may take to be acknowledged before the load fails. */
  static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(20);

  private PacedLoader() {}

  /**
   * Sends ids {@code firstId .. firstId + count - 1} to {@code topic} at {@code ratePerSecond}.
   *
   * @return the {@link System#nanoTime()} each record was sent, by id - firstId
   * @throws LabUserError when a record was not acknowledged within {@link #DELIVERY_TIMEOUT}
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
            "all",
            // One request at a time: a refused first request cannot be overtaken by a later one,
            // which would leave the idempotent producer retrying it with out-of-order sequences.
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            1,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
            (int) DELIVERY_TIMEOUT.toMillis() / 2,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
            (int) DELIVERY_TIMEOUT.toMillis());
    long[] producedNanos = new long[count];
    FirstSendError failure = new FirstSendError();
    long started = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (int i = 0; i < count && failure.get() == null; i++) {
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
                record.getBytes(StandardCharsets.UTF_8)),
            failure);
      }
      producer.flush();
    }
    Exception error = failure.get();
    if (error != null) {
      throw new LabUserError(
          "Loading the paced records into topic "
              + topic
              + " failed (not acknowledged within "
              + DELIVERY_TIMEOUT.toSeconds()
              + " s): "
              + error.getMessage(),
          error);
    }
    return producedNanos;
  }
}
