package io.weir.lab.bench;

import io.weir.lab.LabUserError;
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
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes the generated events into an empty topic at a steady rate while a job reads it: event
 * {@code i} to partition {@code i mod partitions} at offset {@code i / partitions}, with its event
 * time as the record's timestamp, as {@code EventTopicWriter} loads them; and notes each event's
 * send time, the {@link System#nanoTime()} of this JVM when the broker acknowledged it. Used on one
 * thread; the acknowledgements arrive on the producer's.
 */
final class PacedEventWriter implements AutoCloseable {
  /** How often {@link #write} reports its progress. */
  static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

  private final String topic;
  private final int partitions;
  private final EventGenerator generator;
  private final long[] sendNanos;
  private final KafkaProducer<byte[], byte[]> producer;
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  /** Writes events of {@code 0 .. events-1} into {@code topic}, which has {@code partitions}. */
  PacedEventWriter(
      String bootstrap, String topic, int partitions, EventGenerator generator, int events) {
    this.topic = topic;
    this.partitions = partitions;
    this.generator = generator;
    this.sendNanos = new long[events];
    this.producer = new KafkaProducer<>(config(bootstrap));
  }

  /**
   * Sends events {@code from .. to-1}, the {@code k}-th of them {@code k / ratePerSecond} seconds
   * after the call (at once when behind), calls {@code progress} with the count sent so far about
   * every {@link #PROGRESS_EVERY}, and returns once all are acknowledged.
   *
   * @throws LabUserError when the broker refused an event or put it elsewhere than expected
   */
  void write(int from, int to, long ratePerSecond, LongConsumer progress)
      throws InterruptedException {
    long started = System.nanoTime();
    long nextProgress = started + PROGRESS_EVERY.toNanos();
    for (int position = from; position < to && failure.get() == null; position++) {
      long due = started + (position - from) * 1_000_000_000L / ratePerSecond;
      long wait = due - System.nanoTime();
      if (wait > 1_000_000) {
        Thread.sleep(wait / 1_000_000);
      }
      send(position);
      if (System.nanoTime() >= nextProgress) {
        progress.accept(position + 1);
        nextProgress += PROGRESS_EVERY.toNanos();
      }
    }
    producer.flush();
    Exception error = failure.get();
    if (error != null) {
      throw new LabUserError(
          "Writing the paced events into topic " + topic + " failed: " + error.getMessage(), error);
    }
  }

  private void send(int position) {
    Event event = generator.generate(position);
    producer.send(
        new ProducerRecord<>(
            topic, position % partitions, event.timestamp(), null, NexmarkJson.bytes(event)),
        (metadata, exception) -> acknowledged(position, metadata, exception));
  }

  /** On the producer's thread: the send time, once the event is where the watcher expects it. */
  private void acknowledged(int position, RecordMetadata metadata, Exception exception) {
    if (exception != null) {
      failure.compareAndSet(null, exception);
    } else if (metadata.offset() != position / partitions) {
      failure.compareAndSet(
          null,
          new IllegalStateException(
              "event "
                  + position
                  + " landed at offset "
                  + metadata.offset()
                  + " of partition "
                  + metadata.partition()
                  + ", not "
                  + position / partitions
                  + ": the topic was not empty"));
    } else {
      sendNanos[position] = System.nanoTime();
    }
  }

  /**
   * Each event's send time by its position (0: not acknowledged); complete once {@link #write}
   * returned for it.
   */
  long[] sendNanos() {
    return sendNanos;
  }

  private static Properties config(String bootstrap) {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    // Idempotent with in-order retries: the offset of event i stays i / partitions.
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    // One request at a time: a refused first request cannot be overtaken by a later one, which
    // would leave the idempotent producer retrying it with out-of-order sequences.
    config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
    // A short linger: the send time is the acknowledgement, which a batch wait would delay.
    config.put(ProducerConfig.LINGER_MS_CONFIG, "1");
    return config;
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
