package io.weir.lab;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;
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
    send(from, ratePerSecond, id -> id < to);
  }

  /**
   * Sends records from {@code from} on, at {@code rate}/s and with one producer, for as long as
   * {@code more} holds, so that input arrives without pauses; returns the number of records sent.
   *
   * @throws IllegalStateException as {@link #load}
   */
  public long loadWhile(long from, long ratePerSecond, BooleanSupplier more)
      throws InterruptedException {
    return send(from, ratePerSecond, id -> more.getAsBoolean()) - from;
  }

  /** Returns the id after the last one sent. */
  private long send(long from, long ratePerSecond, LongPredicate more) throws InterruptedException {
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
    long id = from;
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (; more.test(id); id++) {
        if (ratePerSecond > 0) {
          long due = started + (id - from) * 1_000_000_000L / ratePerSecond;
          long wait = due - System.nanoTime();
          if (wait > 1_000_000) {
            Thread.sleep(wait / 1_000_000);
          }
        }
        String record = SeedRecords.generate(id);
        producer.send(
            new ProducerRecord<>(
                topic,
                SeedRecords.word(record).getBytes(StandardCharsets.UTF_8),
                record.getBytes(StandardCharsets.UTF_8)),
            failure);
        loaded.incrementAndGet();
      }
      producer.flush();
    }
    Exception error = failure.get();
    if (error != null) {
      throw new IllegalStateException(
          "Loading input records into topic '" + topic + "' failed: " + error, error);
    }
    return id;
  }

  public long loaded() {
    return loaded.get();
  }
}
