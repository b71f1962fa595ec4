package io.weir.kafka.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The transactional producers of one sink subtask, one per transactional id of its bounded pool
 * ({@code <prefix>-<subtask>-<index>}), so ids do not pile up in the broker. A producer is
 * initialised on first use, which fences and aborts whatever an earlier process left open under
 * that id; on transaction protocol v2 it then runs one transaction after another.
 */
final class TransactionalProducers implements AutoCloseable {
  private final KafkaSinkConfig<?> config;
  private final String subtaskPrefix;
  private final Map<Integer, KafkaProducer<byte[], byte[]>> producers = new HashMap<>();

  TransactionalProducers(KafkaSinkConfig<?> config, int subtask) {
    this.config = config;
    this.subtaskPrefix = config.transactionalIdPrefix() + "-" + subtask + "-";
  }

  /** The prefix of every transactional id of this subtask. */
  String subtaskPrefix() {
    return subtaskPrefix;
  }

  String transactionalId(int index) {
    return subtaskPrefix + index;
  }

  KafkaProducer<byte[], byte[]> producer(int index) {
    KafkaProducer<byte[], byte[]> producer = producers.get(index);
    if (producer == null) {
      Map<String, Object> producerConfig = config.producerConfig();
      producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(index));
      producer = new KafkaProducer<>(producerConfig);
      try {
        producer.initTransactions();
      } catch (RuntimeException e) {
        producer.close(Duration.ZERO);
        throw e;
      }
      producers.put(index, producer);
    }
    return producer;
  }

  /** Drops a producer after an error left it unusable; the next use makes a new one. */
  void discard(int index) {
    KafkaProducer<byte[], byte[]> producer = producers.remove(index);
    if (producer != null) {
      producer.close(Duration.ZERO);
    }
  }

  /**
   * Closes every producer without waiting: pre-committed transactions stay open for the restore to
   * commit; the open one was aborted before.
   */
  @Override
  public void close() {
    producers.values().forEach(producer -> producer.close(Duration.ZERO));
    producers.clear();
  }
}
