package io.weir.nexmark.kafka;

import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.NexmarkJson;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes the generated stream to a topic: event {@code i} as JSON to partition {@code i mod
 * partitions}, with its event time as the record's timestamp, idempotently (a retried send is not
 * doubled). Blocks until every event is acknowledged.
 */
public final class EventTopicWriter {
  private static final long PROGRESS_EVERY = 100_000;

  private final String bootstrapServers;
  private final String topic;

  public EventTopicWriter(String bootstrapServers, String topic) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
  }

  /**
   * Writes events {@code 0 .. events-1}; calls {@code progress} with the count written so far every
   * {@value #PROGRESS_EVERY} events and at the end. Fails naming the topic when the broker refuses
   * an event.
   */
  public void write(EventGenerator generator, long events, LongConsumer progress) {
    AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config())) {
      int partitions = producer.partitionsFor(topic).size();
      for (long position = 0; position < events && failure.get() == null; position++) {
        Event event = generator.generate(position);
        producer.send(
            new ProducerRecord<>(
                topic,
                (int) (position % partitions),
                event.timestamp(),
                null,
                NexmarkJson.bytes(event)),
            (metadata, exception) -> {
              if (exception != null) {
                failure.compareAndSet(null, exception);
              }
            });
        if ((position + 1) % PROGRESS_EVERY == 0) {
          progress.accept(position + 1);
        }
      }
      producer.flush();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(
          "Writing Nexmark events to topic '" + topic + "' failed: " + failure.get().getMessage(),
          failure.get());
    }
    progress.accept(events);
  }

  private Properties config() {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
    config.put(
        ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(Duration.ofSeconds(30).toMillis()));
    return config;
  }
}
