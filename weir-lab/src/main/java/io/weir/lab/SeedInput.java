package io.weir.lab;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Writes the seed's input records, each with a unique id, to the input topic. */
public final class SeedInput {
  private final String bootstrap;
  private final String topic;
  private final AtomicLong loaded = new AtomicLong();

  public SeedInput(String bootstrap, String topic) {
    this.bootstrap = bootstrap;
    this.topic = topic;
  }

  /**
   * Sends records {@code from} (inclusive) to {@code to} (exclusive), at most {@code rate}/s.
   *
   * @throws IllegalStateException when the broker did not take a record: an input id missing from
   *     the input topic would otherwise be counted as lost by the job
   */
  public void load(long from, long to, long ratePerSecond) throws InterruptedException {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.ACKS_CONFIG,
            "all");
    long started = System.nanoTime();
    FirstSendError failure = new FirstSendError();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (long i = from; i < to; i++) {
        String record = SeedRecords.generate(i);
        producer.send(
            new ProducerRecord<>(
                topic,
                SeedRecords.word(record).getBytes(StandardCharsets.UTF_8),
                record.getBytes(StandardCharsets.UTF_8)),
            failure);
        loaded.incrementAndGet();
        if (ratePerSecond > 0 && (i - from) % 1000 == 999) {
          long due = started + (i - from + 1) * 1_000_000_000L / ratePerSecond;
          long wait = due - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000);
          }
        }
      }
      producer.flush();
    }
    Exception error = failure.get();
    if (error != null) {
      throw new IllegalStateException(
          "Loading input records into topic '" + topic + "' failed: " + error, error);
    }
  }

  public long loaded() {
    return loaded.get();
  }
}
