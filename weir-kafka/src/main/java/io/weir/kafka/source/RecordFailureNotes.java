package io.weir.kafka.source;

import io.weir.kafka.ClientDefaults;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How often the record at a partition's offset failed the job, kept in Kafka so that the next
 * attempt of the job — in this process or another — knows it: one note per partition, stored as the
 * committed offset of a consumer group of its own ({@link DeadLetterConfig#notesGroup()}), with the
 * failure count and the failure's one-line cause in the offset's metadata. A failure at another
 * offset of the partition replaces the note. Nothing reads from that group; it only holds notes.
 * Used on the source task's thread only.
 */
final class RecordFailureNotes implements AutoCloseable {
  // The broker keeps at most 4,096 bytes of metadata per offset by default.
  private static final int MAX_CAUSE_LENGTH = 1_000;

  /** The record at {@code offset} failed the job {@code failures} times, the last time so. */
  record Note(long offset, int failures, String cause) {}

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Duration timeout;

  RecordFailureNotes(
      String bootstrapServers, String group, Map<String, String> extra, Duration timeout) {
    Properties properties = new Properties();
    properties.putAll(extra);
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    this.consumer = new KafkaConsumer<>(ClientDefaults.applyTo(properties));
    this.timeout = timeout;
  }

  /** The notes of {@code partitions}; partitions without one are absent. */
  Map<TopicPartition, Note> read(Set<TopicPartition> partitions) {
    Map<TopicPartition, Note> notes = new HashMap<>();
    consumer
        .committed(partitions, timeout)
        .forEach(
            (partition, committed) -> {
              if (committed != null) {
                notes.put(partition, decode(committed));
              }
            });
    return notes;
  }

  /**
   * Writes that the record at {@code offset} failed once more than {@code previous} says (when it
   * is about the same offset), and returns the new note. Throws when Kafka cannot be reached.
   */
  Note recordFailure(TopicPartition partition, long offset, Note previous, String cause) {
    int failures = previous != null && previous.offset() == offset ? previous.failures() + 1 : 1;
    String shortCause =
        cause.length() > MAX_CAUSE_LENGTH ? cause.substring(0, MAX_CAUSE_LENGTH) : cause;
    Note note = new Note(offset, failures, shortCause);
    consumer.commitSync(
        Map.of(partition, new OffsetAndMetadata(offset, failures + "\n" + shortCause)), timeout);
    return note;
  }

  private static Note decode(OffsetAndMetadata committed) {
    String metadata = committed.metadata() == null ? "" : committed.metadata();
    int newline = metadata.indexOf('\n');
    try {
      int failures = Integer.parseInt(newline < 0 ? metadata : metadata.substring(0, newline));
      return new Note(
          committed.offset(), failures, newline < 0 ? "" : metadata.substring(newline + 1));
    } catch (NumberFormatException e) {
      // Not a note of ours: no failures known at that offset.
      return new Note(committed.offset(), 0, "");
    }
  }

  @Override
  public void close() {
    consumer.close(Duration.ZERO);
  }
}
