package io.weir.lab;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Counts what a topic holds, by record id (the seed record's unique timestamp, its last
 * comma-separated field), as a reader with the given isolation level sees it: the seed's monitors 1
 * (read_uncommitted) and 2 (read_committed), and the exactly-once verdict.
 */
public final class OutputVerifier implements JobOutput {
  private final String bootstrap;
  private final String topic;

  public OutputVerifier(String bootstrap, String topic) {
    this.bootstrap = bootstrap;
    this.topic = topic;
  }

  /** What a reader sees: how often each id appears, and the records that are not seed records. */
  public record Reading(Map<Long, Integer> counts, long records) {
    public Verdict verify(long firstId, long ids) {
      long lost = 0;
      long duplicated = 0;
      for (long id = firstId; id < firstId + ids; id++) {
        int seen = counts.getOrDefault(SeedRecords.BASE_TIMESTAMP + id, 0);
        if (seen == 0) {
          lost++;
        } else {
          duplicated += seen - 1;
        }
      }
      return new Verdict(ids, records, lost, duplicated);
    }

    /**
     * Compares this reading of an output topic with a reading of the input topic: an id is lost for
     * each time it was read in but not written out, and duplicated for each extra time it was
     * written out (ids that never were input count as duplicates too).
     */
    public Verdict verifyAgainst(Reading input) {
      long lost = 0;
      long duplicated = 0;
      for (Map.Entry<Long, Integer> in : input.counts().entrySet()) {
        int out = counts.getOrDefault(in.getKey(), 0);
        lost += Math.max(0, in.getValue() - out);
        duplicated += Math.max(0, out - in.getValue());
      }
      for (Map.Entry<Long, Integer> out : counts.entrySet()) {
        if (!input.counts().containsKey(out.getKey())) {
          duplicated += out.getValue();
        }
      }
      return new Verdict(input.records(), records, lost, duplicated);
    }
  }

  /** The counts that decide exactly-once. */
  public record Verdict(long in, long out, long lost, long duplicated) {
    public boolean exactlyOnce() {
      return lost == 0 && duplicated == 0;
    }

    public String line() {
      return "verified: in=" + in + " out=" + out + " lost=" + lost + " duplicated=" + duplicated;
    }
  }

  /** A byte-array reader's settings; {@code committedOnly} reads as {@code read_committed}. */
  public static Properties readerProperties(String bootstrap, boolean committedOnly) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    properties.put(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        committedOnly ? "read_committed" : "read_uncommitted");
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return properties;
  }

  @Override
  public Reading read(boolean committedOnly) {
    Map<Long, Integer> counts = new HashMap<>();
    long[] records = {0};
    forEachRecord(
        committedOnly,
        record -> {
          records[0]++;
          String value = new String(record.value(), StandardCharsets.UTF_8);
          counts.merge(SeedRecords.timestamp(value), 1, Integer::sum);
        });
    return new Reading(counts, records[0]);
  }

  /**
   * Hands every record of the topic, from the beginning to the end offsets it had when the reading
   * began, to {@code consumer}, partition by partition in offset order, on the calling thread.
   */
  public void forEachRecord(
      boolean committedOnly, Consumer<ConsumerRecord<byte[], byte[]>> recordConsumer) {
    Properties properties = readerProperties(bootstrap, committedOnly);
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map((PartitionInfo info) -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (!reachedEnd(consumer, ends)) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          recordConsumer.accept(record);
        }
      }
    }
  }

  private static boolean reachedEnd(
      KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) < end.getValue()) {
        return false;
      }
    }
    return true;
  }
}
