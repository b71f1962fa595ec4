package io.weir.kafka.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The transactional producers of one sink subtask, one per transactional id of its bounded pool
 * ({@code <prefix>-<subtask>-<index>}), so ids do not pile up in the broker. A producer is
 * initialised at start ({@link #initialiseAll}) or on first use, which fences and aborts whatever
 * an earlier process left open under that id; on transaction protocol v2 it then runs one
 * transaction after another.
 */
final class TransactionalProducers implements AutoCloseable {
  private final KafkaSinkConfig<?> config;
  private final String subtaskPrefix;
  // Concurrent: a failed commit, on the sink's commit thread, discards its producer while the task
  // thread uses the others.
  private final Map<Integer, KafkaProducer<byte[], byte[]>> producers = new ConcurrentHashMap<>();

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
      producer = initialised(index);
      producers.put(index, producer);
    }
    return producer;
  }

  /**
   * Initialises the producers of every id of the pool that has none yet, concurrently: each
   * initialisation is a broker round trip that fences and aborts what an earlier process left open
   * under that id. Done at start, it keeps these round trips out of the first checkpoints, where
   * beginning the next transaction would otherwise wait for them.
   */
  void initialiseAll() {
    List<Integer> missing = new ArrayList<>();
    for (int index = 0; index < config.transactionalIdPoolSize(); index++) {
      if (!producers.containsKey(index)) {
        missing.add(index);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(
            missing.size(),
            task -> {
              Thread thread = new Thread(task, "producer init " + subtaskPrefix);
              thread.setDaemon(true);
              return thread;
            });
    try {
      Map<Integer, Future<KafkaProducer<byte[], byte[]>>> started = new HashMap<>();
      for (int index : missing) {
        started.put(index, executor.submit(() -> initialised(index)));
      }
      RuntimeException failure = null;
      for (Map.Entry<Integer, Future<KafkaProducer<byte[], byte[]>>> entry : started.entrySet()) {
        try {
          producers.put(entry.getKey(), entry.getValue().get());
        } catch (ExecutionException e) {
          RuntimeException cause =
              e.getCause() instanceof RuntimeException runtime
                  ? runtime
                  : new IllegalStateException(e.getCause());
          if (failure == null) {
            failure = cause;
          } else {
            failure.addSuppressed(cause);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while initialising producers", e);
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      executor.shutdownNow();
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
  }
}
