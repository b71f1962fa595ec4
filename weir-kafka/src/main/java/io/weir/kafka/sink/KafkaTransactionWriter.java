package io.weir.kafka.sink;

import io.weir.api.functions.RuntimeContext;
import io.weir.kafka.BesideStart;
import io.weir.kafka.ClientGauges;
import io.weir.kafka.transaction.PendingTransaction;
import io.weir.kafka.transaction.TransactionResumer;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.startup.StartupPhases;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writing half of one subtask of {@link TransactionalKafkaSink}: starts its producers, begins a
 * transaction under an id of the subtask's pool, sends each record into it (key, partition,
 * timestamp and headers as the sink's serializer makes them), and pre-commits it: writes its marker
 * record ({@link TransactionMarkers}), flushes, and records the producer id, epoch and marker
 * offset that a later process needs to resume and prove it. Aborts the open transaction at close.
 *
 * <p>Task thread only, except what {@link TransactionalProducers} shares with the sink's commit
 * thread. A send that failed is thrown on the task thread by the next record or pre-commit, naming
 * the topic.
 */
final class KafkaTransactionWriter<T> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);

  private final KafkaSinkConfig<T> config;
  private final String operatorName;
  private final TransactionalProducers producers;
  private final TransactionMarkers markers;
  private final Failpoints failpoints;
  // The attempt's: it ends only once the fence of the pool's other ids ended.
  private final BesideStartWork besideStartWork;
  private final AtomicReference<Exception> sendError = new AtomicReference<>();
  private final WrittenOffsets writtenOffsets = new WrittenOffsets();
  // One for every record: a lambda per send would be an allocation per record.
  private final Callback sendCallback =
      (metadata, error) -> {
        if (error != null) {
          sendError.compareAndSet(null, error);
        } else {
          writtenOffsets.written(metadata.partition(), metadata.offset());
        }
      };

  KafkaTransactionWriter(KafkaSinkConfig<T> config, RuntimeContext context) {
    this.config = config;
    this.operatorName = context.operatorName();
    this.producers = new TransactionalProducers(config, context.subtaskIndex());
    this.markers = new TransactionMarkers(config.producerConfig(), config.transactionalIdPrefix());
    this.failpoints = Failpoints.of(context);
    this.besideStartWork = BesideStartWork.of(context);
    ClientGauges.addProducers(context.metricGroup(), producers::forGauges);
  }

  /** The sink's marker topic, whose admin clients the committer uses too. */
  TransactionMarkers markers() {
    return markers;
  }

  /** The subtask's producers, which the committer commits with. */
  TransactionalProducers producers() {
    return producers;
  }

  /**
   * Runs before the first transaction begins, once every restored transaction of the sink is
   * settled: from here nothing under the pool's ids is left to commit. Initialises the producers of
   * the first two ids while one admin client, beside them, checks the transaction timeout against
   * the broker and creates the marker topic (both awaited), and then fences the pool's other ids
   * (not awaited: the first transactions do not use them, and a transaction that needs one of them
   * waits for the fence). The attempt awaits the fence before it ends ({@link BesideStartWork}):
   * the next attempt uses the same ids, and a fence landing after it began a transaction under one
   * of them would abort that transaction.
   */
  void start() {
    CompletableFuture<Optional<String>> startChecks = startChecksThenFence();
    try {
      StartupPhases.reached("sink " + producers.subtaskPrefix() + "* initialises its producers");
      producers.initialise();
      StartupPhases.reached("sink " + producers.subtaskPrefix() + "* initialised its producers");
    } catch (RuntimeException e) {
      // A timeout above the broker's maximum fails the producers too; its message says why.
      BesideStart.await(startChecks);
      throw e;
    }
    BesideStart.await(startChecks).ifPresent(LOG::warn);
  }

  /**
   * The start checks' outcome: a warning, if any, or their failure. A failed fence is only logged:
   * what it leaves open under an id holds readers back until the id's first use here fences it, or
   * the broker's timeout aborts it; nothing of this job's output depends on it.
   */
  private CompletableFuture<Optional<String>> startChecksThenFence() {
    CompletableFuture<Optional<String>> checked = new CompletableFuture<>();
    CompletableFuture<Void> fenced = new CompletableFuture<>();
    producers.useTheOthersAfter(fenced);
    besideStartWork.add(fenced);
    inBackground(
        "start checks",
        () -> {
          // One admin client for all three: each client's start costs the cores the job's start
          // needs.
          try (Admin admin = markers.newAdmin()) {
            String sink = "sink " + producers.subtaskPrefix() + "* ";
            StartupPhases.reached(sink + "checks the transaction timeout");
            Optional<String> warning = TransactionTimeoutCheck.check(config, admin);
            markers.ensureTopic(admin);
            StartupPhases.reached(sink + "checked the transaction timeout and the marker topic");
            checked.complete(warning);
            failpoints.hit(FailpointNames.SINK_FENCE_BEFORE);
            // Past the lease the job manager may count this task manager as gone: a fence sent
            // now could land in the next attempt. Not fencing only leaves what an earlier run
            // left open to the first use of each id here, or to the broker's timeout.
            if (besideStartWork.mayStart()) {
              producers.fenceTheOthers(admin);
              StartupPhases.reached(sink + "fenced its other transactional ids");
            } else {
              LOG.warn(
                  "Sink '{}' does not fence its other transactional ids: this task manager's lease"
                      + " with its job manager expired",
                  operatorName);
            }
          } catch (RuntimeException e) {
            if (!checked.completeExceptionally(e)) {
              LOG.warn("{}", e.getMessage());
            }
          } finally {
            // After the admin client closed, which waits for its calls to end (each bounded by
            // its timeouts): from here the fence sends nothing more.
            fenced.complete(null);
          }
          return null;
        });
    return checked;
  }

  private <R> CompletableFuture<R> inBackground(String what, Supplier<R> work) {
    return BesideStart.run(what + " " + operatorName, work);
  }

  /** Begins a transaction with the producer of pool index {@code index}. */
  KafkaTransaction begin(int index) {
    KafkaProducer<byte[], byte[]> producer = producers.producer(index);
    producer.beginTransaction();
    return new KafkaTransaction(producers.transactionalId(index), index, producer);
  }

  void write(KafkaTransaction transaction, T value) throws Exception {
    throwSendError();
    transaction.recordSent();
    transaction.producer().send(config.producerRecordOf(value), sendCallback);
  }

  /** Writes the marker, flushes, and records what resuming the transaction takes. */
  void preCommit(KafkaTransaction transaction) throws Exception {
    // An empty transaction is not resumable (the broker never saw it begin) and needs no commit
    // after a restore, so the checkpoint keeps only its transactional id.
    if (!transaction.hasRecords()) {
      transaction.producer().flush();
      throwSendError();
      return;
    }
    PendingTransaction pending = TransactionResumer.pendingTransactionOf(transaction.producer());
    Future<RecordMetadata> marker =
        transaction
            .producer()
            .send(
                markers.marker(
                    pending.transactionalId(),
                    pending.producerId(),
                    pending.epoch(),
                    transaction.recordCount()));
    transaction.producer().flush();
    throwSendError();
    transaction.preCommitted(pending, marker.get().offset(), writtenOffsets.take());
  }

  /**
   * Aborts a transaction this process began; one restored from a checkpoint has no producer here,
   * and the recovery aborts it with the other lingering ones. A producer whose abort failed is in a
   * fatal state: it is discarded, and its id's next use makes a new one.
   */
  void abort(KafkaTransaction transaction) {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      return;
    }
    try {
      producer.abortTransaction();
    } catch (KafkaException e) {
      producers.discard(transaction.poolIndex());
    }
  }

  private void throwSendError() throws Exception {
    // A plain read on every record; the atomic exchange only once an error arrived.
    if (sendError.get() == null) {
      return;
    }
    Exception error = sendError.getAndSet(null);
    if (error != null) {
      throw new IllegalStateException(
          "Sending to topic '" + config.topic() + "' failed: " + error.getMessage(), error);
    }
  }

  @Override
  public void close() {
    producers.close();
  }
}
