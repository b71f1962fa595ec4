package io.weir.lab.bench;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The baseline the benchmark compares Weir with: one thread that consumes, applies the seed's map
 * and produces, with one Kafka transaction per second that also carries the consumed offsets
 * ({@code sendOffsetsToTransaction}). Run as its own process: {@code RawPipeline bootstrap input
 * output group bounded(true|false)}; a bounded run stops at the input's end offsets at start.
 */
public final class RawPipeline {
  private static final long TRANSACTION_NANOS = 1_000_000_000L;

  private RawPipeline() {}

  public static void main(String[] args) {
    String bootstrap = args[0];
    String input = args[1];
    String output = args[2];
    String group = args[3];
    boolean bounded = Boolean.parseBoolean(args[4]);
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap, group);
        KafkaProducer<byte[], byte[]> producer = producer(bootstrap, group)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(input).stream()
              .map(info -> new TopicPartition(input, info.partition()))
              .toList();
      consumer.assign(partitions);
      Map<TopicPartition, Long> ends = bounded ? consumer.endOffsets(partitions) : Map.of();
      producer.initTransactions();
      producer.beginTransaction();
      long transactionStarted = System.nanoTime();
      while (!bounded || !reachedEnd(consumer, ends)) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          String value =
              SeedRecords.incrementFrequency(new String(record.value(), StandardCharsets.UTF_8));
          producer.send(
              new ProducerRecord<>(output, record.key(), value.getBytes(StandardCharsets.UTF_8)));
        }
        if (System.nanoTime() - transactionStarted >= TRANSACTION_NANOS) {
          commit(consumer, producer, partitions);
          producer.beginTransaction();
          transactionStarted = System.nanoTime();
        }
      }
      commit(consumer, producer, partitions);
    }
  }

  private static void commit(
      KafkaConsumer<byte[], byte[]> consumer,
      KafkaProducer<byte[], byte[]> producer,
      List<TopicPartition> partitions) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition partition : partitions) {
      offsets.put(partition, new OffsetAndMetadata(consumer.position(partition)));
    }
    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
    producer.commitTransaction();
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

  private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String group) {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return new KafkaConsumer<>(properties);
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap, String group) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, group + "-raw");
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return new KafkaProducer<>(properties);
  }
}
