package io.weir.kafka.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Small client calls tests need against a real broker: topics, producers, counting readers. */
public final class KafkaTestClients {
  private KafkaTestClients() {}

  public static void createTopic(String bootstrapServers, String topic, int partitions) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create topic " + topic, e);
    }
  }

  /** String producer settings; add {@code transactional.id} for a transactional producer. */
  public static Properties producerConfig(String bootstrapServers) {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    return config;
  }

  /**
   * Reads {@code topic} from the beginning with the given isolation level until the consumer's
   * position reaches the end offsets (for read_committed: the last stable offsets) of all
   * partitions, and returns the values read as UTF-8 text.
   */
  public static List<String> readAll(String bootstrapServers, String topic, String isolation) {
    List<String> values = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : readRecords(bootstrapServers, topic, isolation)) {
      values.add(
          record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8));
    }
    return values;
  }

  /** As {@link #readAll}, the whole records: keys, values, headers, timestamps, positions. */
  public static List<ConsumerRecord<byte[], byte[]>> readRecords(
      String bootstrapServers, String topic, String isolation) {
    try (KafkaConsumer<byte[], byte[]> consumer = reader(bootstrapServers, topic, isolation)) {
      return readToEnd(consumer);
    }
  }

  /**
   * A consumer with the given isolation level, assigned every partition of {@code topic}, its
   * metadata already fetched: a test that makes it before a job ends reads right after the end with
   * {@link #readToEnd}, as quickly as a script that polls for its output.
   */
  public static KafkaConsumer<byte[], byte[]> reader(
      String bootstrapServers, String topic, String isolation) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
    List<TopicPartition> partitions = new ArrayList<>();
    for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
      partitions.add(new TopicPartition(topic, info.partition()));
    }
    consumer.assign(partitions);
    return consumer;
  }

  /**
   * Reads a {@link #reader}'s partitions from the beginning until its position reaches the end
   * offsets as they are now (for read_committed: the last stable offsets).
   */
  public static List<ConsumerRecord<byte[], byte[]>> readToEnd(
      KafkaConsumer<byte[], byte[]> consumer) {
    Map<TopicPartition, Long> end =
        consumer.endOffsets(consumer.assignment(), Duration.ofSeconds(30));
    consumer.seekToBeginning(consumer.assignment());
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    Instant deadline = Instant.now().plusSeconds(30);
    while (!reached(consumer, end) && Instant.now().isBefore(deadline)) {
      consumer.poll(Duration.ofMillis(200)).forEach(records::add);
    }
    if (!reached(consumer, end)) {
      throw new IllegalStateException("did not reach the end of " + end.keySet() + " in 30 s");
    }
    return records;
  }

  /** The last stable offsets (end offsets for read_committed) of a topic's partitions. */
  public static Map<TopicPartition, Long> lastStableOffsets(String bootstrapServers, String topic) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      Set<TopicPartition> partitions = new java.util.HashSet<>();
      for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      return consumer.endOffsets(partitions, Duration.ofSeconds(30));
    }
  }

  private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
      if (consumer.position(partition.getKey()) < partition.getValue()) {
        return false;
      }
    }
    return true;
  }
}
