package io.weir.kafka.sink;

import io.weir.kafka.BesideStart;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The transactional producers of one sink subtask, one per transactional id of its bounded pool
 * ({@code <prefix>-<subtask>-<index>}), so ids do not pile up in the broker. A producer is
 * initialised at start ({@link #initialise}) or on first use, which fences and aborts whatever an
 * earlier process left open under that id; on transaction protocol v2 it then runs one transaction
 * after another.
 */
final class TransactionalProducers implements AutoCloseable {
  private final KafkaSinkConfig<?> config;
  private final String subtaskPrefix;
  // Concurrent: a failed commit, on the sink's commit thread, discards its producer while the task
  // thread uses the others.
  private final Map<Integer, KafkaProducer<byte[], byte[]>> producers = new ConcurrentHashMap<>();
  // The pool's later ids, initialised in the background once the first two are ready.
  private final Map<Integer, CompletableFuture<KafkaProducer<byte[], byte[]>>> initialising =
      new ConcurrentHashMap<>();

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
      CompletableFuture<KafkaProducer<byte[], byte[]>> started = initialising.remove(index);
      producer = started != null ? BesideStart.await(started) : initialised(index);
      producers.put(index, producer);
    }
    return producer;
  }

  /**
   * Initialises the producers of the first transaction's id and the next one's, concurrently, and
   * then those of the pool's other ids in the background. Each initialisation is a producer's start
   * and a broker round trip that fences and aborts what an earlier process left open under that id.
   * The first two are awaited because the first checkpoint begins the second transaction; waiting
   * for the whole pool instead would put all of its starts, which compete for the same cores,
   * between the deployment and the first output.
   */
  void initialise(int first) {
    int poolSize = config.transactionalIdPoolSize();
    int second = (first + 1) % poolSize;
    startInBackground(first);
    startInBackground(second);
    producer(first);
    producer(second);
    for (int index = 0; index < poolSize; index++) {
      startInBackground(index);
    }
  }

  private void startInBackground(int index) {
    if (!producers.containsKey(index)) {
      initialising.computeIfAbsent(
          index,
          missing ->
              BesideStart.run(
                  "producer init " + transactionalId(missing), () -> initialised(missing)));
    }
  }

  private KafkaProducer<byte[], byte[]> initialised(int index) {
    Map<String, Object> producerConfig = config.producerConfig();
    producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(index));
    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig);
    try {
      producer.initTransactions();
    } catch (RuntimeException e) {
      producer.close(Duration.ZERO);
      throw e;
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
    // A producer still starting is closed once it is ready, not left running.
    initialising.values().forEach(started -> started.thenAccept(p -> p.close(Duration.ZERO)));
    initialising.clear();
  }
}
