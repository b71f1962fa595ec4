package io.weir.kafka.sink;

import io.weir.kafka.BesideStart;
import io.weir.kafka.ClientGauges;
import io.weir.runtime.startup.BesideStartWork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FenceProducersOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The transactional producers of one sink subtask, one per transactional id of its bounded pool
 * ({@code <prefix>-<subtask>-<index>}), so ids do not pile up in the broker. The producers of the
 * first two ids are made at start ({@link #initialise}), those of the others on first use, which
 * comes only when commits fall behind: each costs a client's start, the cores a job's start needs.
 * Every id of the pool is fenced at start all the same, so that nothing an earlier process left
 * open under it holds {@code read_committed} readers back: the first two by their producers'
 * initialisation, the others by {@link #fenceTheOthers}, which must reach the broker before any of
 * their producers does (see {@link #useTheOthersAfter}). On transaction protocol v2 a producer runs
 * one transaction after another.
 */
final class TransactionalProducers implements AutoCloseable {
  // The admin call ends by then, answered or not, and sends nothing after it.
  private static final long FENCE_TIMEOUT_SECONDS = BesideStartWork.WORK_BOUND.toSeconds();
  // The ids whose producers initialise() makes.
  private static final int FIRST_IDS = 2;

  private final KafkaSinkConfig<?> config;
  private final String subtaskPrefix;
  // Concurrent: a failed commit, on the sink's commit thread, discards its producer while the task
  // thread uses the others.
  private final Map<Integer, KafkaProducer<byte[], byte[]>> producers = new ConcurrentHashMap<>();
  // What the discarded producers had counted, for the sink's gauges. Guarded by this, as is a
  // discard's removal from the map: a gauge sees a producer either in the map or in these counts.
  private ClientGauges.RetiredCounts retired = ClientGauges.RetiredCounts.NONE;
  // The second id's producer, made beside the first one's.
  private final Map<Integer, CompletableFuture<KafkaProducer<byte[], byte[]>>> initialising =
      new ConcurrentHashMap<>();
  // Ends when the fence of the ids beyond the first two has ended, however it ended.
  private volatile CompletableFuture<?> othersFenced = CompletableFuture.completedFuture(null);

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
      if (index >= FIRST_IDS) {
        othersFenced.handle((ended, failure) -> ended).join();
      }
      CompletableFuture<KafkaProducer<byte[], byte[]>> started = initialising.remove(index);
      producer = started != null ? BesideStart.await(started) : initialised(index);
      producers.put(index, producer);
    }
    return producer;
  }

  /**
   * Initialises the producers of the first two ids, concurrently: the first transaction takes one,
   * and the first checkpoint begins the second transaction with the other. Each initialisation is a
   * producer's start and a broker round trip that fences and aborts what an earlier process left
   * open under that id.
   */
  void initialise() {
    startInBackground(1);
    producer(0);
    producer(1);
  }

  /**
   * Makes the first use of an id beyond the first two wait until {@code fence} has ended (however
   * it ends), for {@link #fenceTheOthers} running beside the start. A fence that reaches the broker
   * after a producer of the same id was initialised bumps that producer's epoch and aborts its open
   * transaction, failing the subtask ("produce with an old epoch"); that happens when the first
   * commits are slow enough to need a third id before the fence is through.
   */
  void useTheOthersAfter(CompletableFuture<?> fence) {
    othersFenced = fence;
  }

  /**
   * Fences the pool's ids other than the first two in one admin request: the broker aborts what an
   * earlier process left open under them and refuses that process's producers from then on, as a
   * producer's initialisation would, without starting one.
   *
   * @throws IllegalStateException when the broker does not confirm it in time
   */
  void fenceTheOthers(Admin admin) {
    List<String> others = new ArrayList<>();
    for (int index = FIRST_IDS; index < config.transactionalIdPoolSize(); index++) {
      others.add(transactionalId(index));
    }
    if (others.isEmpty()) {
      return;
    }
    try {
      admin
          .fenceProducers(
              others,
              new FenceProducersOptions()
                  .timeoutMs((int) TimeUnit.SECONDS.toMillis(FENCE_TIMEOUT_SECONDS)))
          .all()
          .get(FENCE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Cannot fence the transactional ids " + others + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "Cannot fence the transactional ids "
              + others
              + ": no answer in "
              + FENCE_TIMEOUT_SECONDS
              + " s",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while fencing the transactional ids " + others);
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

  /**
   * The producers made so far and not discarded, and what the discarded ones had counted, for the
   * sink's gauges; called from any thread.
   */
  synchronized ClientGauges.Producers forGauges() {
    return new ClientGauges.Producers(List.copyOf(producers.values()), retired);
  }

  /** Drops a producer after an error left it unusable; the next use makes a new one. */
  void discard(int index) {
    KafkaProducer<byte[], byte[]> producer;
    synchronized (this) {
      producer = producers.remove(index);
      if (producer != null) {
        retired = retired.plus(producer);
      }
    }
    if (producer != null) {
      producer.close(Duration.ZERO);
    }
  }

  /**
   * Closes every producer without waiting: pre-committed transactions stay open for the restore to
   * commit; the open one was aborted before. A fence still in flight goes on: the attempt awaits it
   * before it ends ({@link KafkaTransactionWriter#start}).
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
