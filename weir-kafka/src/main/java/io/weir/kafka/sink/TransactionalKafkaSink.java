package io.weir.kafka.sink;

import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.sink.CommitFailure;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.kafka.transaction.RecoveryCommitResult;
import io.weir.kafka.transaction.RecoveryOutcome;
import io.weir.kafka.transaction.TransactionResumer;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exactly-once Kafka sink: one Kafka transaction per checkpoint and subtask. {@code preCommit}
 * flushes and records the producer id and epoch; {@code commit} commits — with the producer that
 * began the transaction, or, after a restore, by resuming the transaction of the killed process
 * from its producer id and epoch. On every start the subtask's lingering transactions (begun after
 * the restored checkpoint, or by an earlier run) are aborted once the restored ones are committed,
 * so {@code read_committed} readers never wait for the broker's transaction timeout.
 */
final class TransactionalKafkaSink<T>
    extends TwoPhaseCommitSinkFunction<T, KafkaTransaction, Void> {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);

  private final KafkaSinkConfig<T> config;
  private transient TransactionalProducers producers;
  private transient AtomicReference<Exception> sendError;
  private transient int nextIndex;
  private transient CompletableFuture<Optional<String>> timeoutCheck;

  KafkaSinkConfig<T> config() {
    return config;
  }

  TransactionalKafkaSink(KafkaSinkConfig<T> config) {
    super(
        TwoPhaseCommitOptions.builder()
            .transactionTimeout(config.transactionTimeout(), 0.5)
            .build());
    this.config = config;
  }

  private TransactionalProducers producers() {
    if (producers == null) {
      producers = new TransactionalProducers(config, getRuntimeContext().subtaskIndex());
      sendError = new AtomicReference<>();
    }
    return producers;
  }

  /**
   * Checks the transaction timeout against the broker before any transaction begins: while the
   * restored transactions are committed (resuming sends no timeout), settled before the pool's
   * producers are used.
   */
  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    timeoutCheck = inBackground("timeout check", () -> TransactionTimeoutCheck.check(config));
    super.initializeState(context);
  }

  @Override
  protected KafkaTransaction beginTransaction() {
    int index = nextIndex;
    nextIndex = (nextIndex + 1) % config.transactionalIdPoolSize();
    String id = producers().transactionalId(index);
    for (KafkaTransaction pending : pendingTransactions().values()) {
      if (pending.poolIndex() == index) {
        throw new IllegalStateException(
            "All "
                + config.transactionalIdPoolSize()
                + " transactional ids of "
                + producers().subtaskPrefix()
                + "* are pending: checkpoint notifications are late; "
                + id
                + " cannot be reused before its transaction is committed");
      }
    }
    KafkaProducer<byte[], byte[]> producer = producers().producer(index);
    producer.beginTransaction();
    return new KafkaTransaction(id, index, producer);
  }

  @Override
  protected void invoke(KafkaTransaction transaction, T value, Context context) throws Exception {
    throwSendError();
    transaction.recordSent();
    transaction
        .producer()
        .send(
            new ProducerRecord<>(
                config.topic(), config.serializer().key(value), config.serializer().value(value)),
            (metadata, error) -> {
              if (error != null) {
                sendError.compareAndSet(null, error);
              }
            });
  }

  @Override
  protected void preCommit(KafkaTransaction transaction) throws Exception {
    transaction.producer().flush();
    throwSendError();
    // An empty transaction is not resumable (the broker never saw it begin) and needs no commit
    // after a restore, so the checkpoint keeps only its transactional id.
    if (transaction.hasRecords()) {
      transaction.preCommitted(TransactionResumer.pendingTransactionOf(transaction.producer()));
    }
  }

  @Override
  protected void commit(KafkaTransaction transaction) throws Exception {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      recoverAndCommit(transaction);
      return;
    }
    try {
      producer.commitTransaction();
    } catch (KafkaException e) {
      producers().discard(transaction.poolIndex());
      throw e;
    }
  }

  @Override
  protected void recoverAndCommit(KafkaTransaction transaction) throws Exception {
    if (!transaction.isPreCommitted()) {
      return;
    }
    RecoveryCommitResult result =
        TransactionResumer.recoverAndCommit(
            config.producerConfig(), transaction.pending(), config.topic());
    if (result.outcome() == RecoveryOutcome.ABORTED_BY_BROKER) {
      throw new TransactionAbortedByBrokerException(result.describe(), result.error().orElse(null));
    }
    if (result.outcome() != RecoveryOutcome.COMMITTED) {
      LOG.warn(
          "Sink {}: {}; it was most likely committed by an earlier attempt",
          getRuntimeContext().operatorName(),
          result.describe());
    }
  }

  @Override
  protected void abort(KafkaTransaction transaction) {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      return;
    }
    try {
      producer.abortTransaction();
    } catch (KafkaException e) {
      producers().discard(transaction.poolIndex());
    }
  }

  /** The open transaction of the killed process is aborted with the other lingering ones. */
  @Override
  protected void recoverAndAbort(KafkaTransaction transaction) {}

  /**
   * Runs after the restored transactions were committed (or on a fresh start) and before the first
   * new transaction: aborts what this subtask's ids still hold open, and starts the pool after the
   * ids the restored state used. The pool's own ids are aborted by initialising their producers,
   * all at once, which the sink then goes on using; the listing finds ids outside the pool (left by
   * a run with a larger pool), aborted on their own meanwhile.
   */
  @Override
  protected Optional<Void> initializeUserContext() {
    String prefix = producers().subtaskPrefix();
    Set<String> pool = new HashSet<>();
    for (int index = 0; index < config.transactionalIdPoolSize(); index++) {
      pool.add(producers().transactionalId(index));
    }
    CompletableFuture<List<OpenTransaction>> outsidePool =
        inBackground("lingering transactions", () -> abortLingeringOutside(prefix, pool));
    try {
      producers().initialiseAll();
    } catch (RuntimeException e) {
      // A timeout above the broker's maximum fails the producers too; its message says why.
      join(timeoutCheck);
      throw e;
    }
    join(timeoutCheck).ifPresent(LOG::warn);
    List<OpenTransaction> aborted = join(outsidePool);
    if (!aborted.isEmpty()) {
      LOG.info(
          "Sink {} aborted {} lingering transaction(s) outside its pool of ids: {}",
          getRuntimeContext().operatorName(),
          aborted.size(),
          aborted.stream().map(OpenTransaction::transactionalId).toList());
    }
    return Optional.empty();
  }

  private <R> CompletableFuture<R> inBackground(String what, Supplier<R> work) {
    String name = what + " " + getRuntimeContext().operatorName();
    return CompletableFuture.supplyAsync(
        work,
        task -> {
          Thread thread = new Thread(task, name);
          thread.setDaemon(true);
          thread.start();
        });
  }

  private static <R> R join(CompletableFuture<R> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  private List<OpenTransaction> abortLingeringOutside(String prefix, Set<String> pool) {
    try (LingeringTransactions lingering = new LingeringTransactions(config.producerConfig())) {
      return lingering.abortAll(prefix, pool);
    }
  }

  @Override
  protected void finishRecoveringContext(java.util.Collection<KafkaTransaction> handled) {
    int highest = -1;
    for (KafkaTransaction transaction : handled) {
      if (transaction.transactionalId().startsWith(producers().subtaskPrefix())) {
        highest = Math.max(highest, transaction.poolIndex());
      }
    }
    nextIndex = (highest + 1) % config.transactionalIdPoolSize();
  }

  @Override
  protected CommitFailure classifyCommitFailure(
      KafkaTransaction transaction, long ageMillis, Exception cause) {
    if (cause instanceof TransactionAbortedByBrokerException) {
      return CommitFailure.TRANSACTION_TIMED_OUT;
    }
    return super.classifyCommitFailure(transaction, ageMillis, cause);
  }

  private void throwSendError() throws Exception {
    Exception error = sendError.getAndSet(null);
    if (error != null) {
      throw new IllegalStateException(
          "Sending to topic '" + config.topic() + "' failed: " + error.getMessage(), error);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      super.close();
    } finally {
      if (producers != null) {
        producers.close();
      }
    }
  }
}
