package io.weir.kafka.sink;

import io.weir.api.sink.TransactionIdParts;
import io.weir.kafka.ClientDefaults;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The proof of each transaction's outcome: every transaction of the exactly-once sink that holds
 * records also writes one marker record (transactional id, producer id, epoch, record count) to a
 * one-partition internal topic of the sink, in the same transaction, and the checkpoint keeps the
 * marker's offset. On recovery, once nothing of the sink is open any more, a {@code read_committed}
 * reader sees the marker exactly when the transaction committed; an aborted one's marker is
 * skipped. Unlike a replayed commit, this does not depend on whether the transactional id was used
 * again since, nor on the transaction protocol version.
 */
final class TransactionMarkers {
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  private static final long RETENTION_MS = Duration.ofDays(7).toMillis();

  private static final String TOPIC_PREFIX = "weir-markers.";
  // Kafka's limit on topic names is 249 characters.
  private static final int MAX_PREFIX_LENGTH = 249 - TOPIC_PREFIX.length();

  private final Map<String, Object> clientConfig;
  private final String topic;

  TransactionMarkers(Map<String, Object> clientConfig, String transactionalIdPrefix) {
    this.clientConfig = clientConfig;
    this.topic = topicOf(transactionalIdPrefix);
  }

  /**
   * The marker topic of the sink with this transactional id prefix: different prefixes never share
   * one ({@link TransactionIdParts}; the escaped prefix holds neither {@code .} nor a bare {@code
   * _}, so neither do two marker topics collide in the broker's metric names).
   */
  static String topicOf(String transactionalIdPrefix) {
    return TOPIC_PREFIX + TransactionIdParts.escaped(transactionalIdPrefix, MAX_PREFIX_LENGTH);
  }

  String topic() {
    return topic;
  }

  /** The marker of a transaction, to send in the transaction right before it is pre-committed. */
  ProducerRecord<byte[], byte[]> marker(
      String transactionalId, long producerId, short epoch, long recordCount) {
    String value =
        "transactional id "
            + transactionalId
            + ", producer id "
            + producerId
            + ", epoch "
            + epoch
            + ", records "
            + recordCount;
    return new ProducerRecord<>(
        topic,
        0,
        transactionalId.getBytes(StandardCharsets.UTF_8),
        value.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Creates the marker topic when it does not exist: one partition, the broker's default
   * replication, kept a week (a job down longer than that has lost its pending transactions to the
   * broker's timeout anyway).
   */
  void ensureTopic() {
    try (Admin admin = newAdmin()) {
      ensureTopic(admin);
    }
  }

  /** As {@link #ensureTopic()}, with an admin client of the caller's. */
  void ensureTopic(Admin admin) {
    try {
      NewTopic newTopic =
          new NewTopic(topic, Optional.of(1), Optional.empty())
              .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(RETENTION_MS)));
      admin.createTopics(List.of(newTopic)).all().get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new KafkaException("Cannot create the marker topic " + topic, e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("Interrupted while creating the marker topic " + topic, e);
    }
  }

  /**
   * Which of the markers at the offsets of {@code expected} a {@code read_committed} reader sees,
   * i.e. whose transactions committed. A record there counts only when it is the expected marker
   * (its key the transactional id the checkpoint recorded): anything else at that offset, such as
   * another sink's marker in a topic that was deleted and made again, proves nothing. Call only
   * once no transaction of the sink is open.
   *
   * @param expected the transactional id whose marker each offset holds
   * @throws IllegalStateException when it cannot be proven: a marker was deleted by retention, or
   *     an open transaction holds the topic back past the markers
   */
  Set<Long> committedAmong(SortedMap<Long, String> expected) {
    Set<Long> committed = new HashSet<>();
    if (expected.isEmpty()) {
      return committed;
    }
    SortedSet<Long> offsets = new TreeSet<>(expected.keySet());
    TopicPartition partition = new TopicPartition(topic, 0);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig())) {
      consumer.assign(List.of(partition));
      long logStart = consumer.beginningOffsets(List.of(partition)).get(partition);
      if (offsets.first() < logStart) {
        throw new IllegalStateException(
            "cannot prove the outcome of the transaction whose marker was at offset "
                + offsets.first()
                + " of topic "
                + topic
                + ": retention deleted it (the topic starts at offset "
                + logStart
                + ")");
      }
      consumer.seek(partition, offsets.first());
      long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
      while (consumer.position(partition) <= offsets.last()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "cannot prove transaction outcomes: topic "
                  + topic
                  + " is held at offset "
                  + consumer.position(partition)
                  + " by an open transaction after "
                  + READ_TIMEOUT.toSeconds()
                  + " s");
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (isExpectedMarker(record, expected)) {
            committed.add(record.offset());
          }
        }
      }
    }
    return committed;
  }

  private static boolean isExpectedMarker(
      ConsumerRecord<byte[], byte[]> record, SortedMap<Long, String> expected) {
    String transactionalId = expected.get(record.offset());
    return transactionalId != null
        && record.key() != null
        && transactionalId.equals(new String(record.key(), StandardCharsets.UTF_8));
  }

  /** An admin client with the sink's bootstrap servers and security settings. */
  Admin newAdmin() {
    return Admin.create(adminConfig());
  }

  private Map<String, Object> adminConfig() {
    Map<String, Object> config = new HashMap<>();
    config.put(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        clientConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    copySecurity(config);
    return ClientDefaults.applyTo(config);
  }

  private Map<String, Object> consumerConfig() {
    Map<String, Object> config = adminConfig();
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return config;
  }

  /** Security settings of the sink's producers apply to its admin and reader too. */
  private void copySecurity(Map<String, Object> config) {
    clientConfig.forEach(
        (key, value) -> {
          if (key.startsWith("security.") || key.startsWith("sasl.") || key.startsWith("ssl.")) {
            config.put(key, value);
          }
        });
  }
}
