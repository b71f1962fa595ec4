package io.weir.kafka.transaction;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Commits, from a new producer instance, a Kafka transaction that a crashed producer left open: the
 * {@code recoverAndCommit} of an exactly-once sink. Works with kafka-clients 4.4 on brokers running
 * transaction protocol v1 or v2.
 *
 * <p>Use: while the transaction is open, store {@link #pendingTransactionOf} in the checkpoint; on
 * restore, call {@link #recoverAndCommit} with it. Both are safe to call from any thread that does
 * not use the producer concurrently. Committing the same transaction again is quiet (it returns
 * {@link RecoveryOutcome#COMMITTED}) as long as nothing has used the transactional id in between;
 * once it has, every replay is {@link RecoveryOutcome#FENCED}, so settle the outcome of each
 * pending transaction before reusing its transactional id.
 */
public final class TransactionResumer {
  private static final int DEFAULT_MAX_BLOCK_MS = 30_000;

  private TransactionResumer() {}

  /**
   * The transactional id, producer id and epoch of the producer's current transaction, to store in
   * a checkpoint. The producer must be transactional and initialised.
   */
  public static PendingTransaction pendingTransactionOf(KafkaProducer<?, ?> producer) {
    return new TransactionManagerAccess(producer).current();
  }

  /** Whether the producer speaks transaction protocol v2 (the epoch moves on every commit). */
  public static boolean usesTransactionV2(KafkaProducer<?, ?> producer) {
    return new TransactionManagerAccess(producer).isTransactionV2Enabled();
  }

  /**
   * Makes {@code producer} the owner of {@code transaction}, so that its next {@code
   * commitTransaction()} commits it. The producer must have been created with the same {@code
   * transactional.id} and must not have called {@code initTransactions()} (that would abort the
   * transaction). {@code topic} is any existing topic: reading its metadata makes the client learn
   * the broker's API versions first. Do not {@code close()} the producer normally before the
   * commit: that aborts the transaction ({@code close(Duration.ZERO)} leaves it open). On protocol
   * v2 the producer may go on with new transactions after the commit; on v1 it may not.
   */
  public static void resume(
      KafkaProducer<?, ?> producer, PendingTransaction transaction, String topic) {
    TransactionManagerAccess access = new TransactionManagerAccess(producer);
    if (!transaction.transactionalId().equals(access.transactionalId())) {
      throw new IllegalArgumentException(
          "cannot resume transaction "
              + transaction
              + " with a producer whose transactional.id is "
              + access.transactionalId());
    }
    producer.partitionsFor(topic);
    access.resume(transaction);
  }

  /**
   * Commits {@code transaction} with a new producer built from {@code producerConfig} (at least
   * {@code bootstrap.servers}; serializers and {@code transactional.id} are set here) and closes
   * it. Returns how the transaction ended; throws only for errors that say nothing about the
   * transaction (broker unreachable: {@link org.apache.kafka.common.errors.TimeoutException}).
   */
  public static RecoveryCommitResult recoverAndCommit(
      Map<String, Object> producerConfig, PendingTransaction transaction, String topic) {
    Map<String, Object> config = new HashMap<>(producerConfig);
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transaction.transactionalId());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_MAX_BLOCK_MS);
    KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config);
    try {
      resume(producer, transaction, topic);
      producer.commitTransaction();
      producer.close();
      return new RecoveryCommitResult(transaction, RecoveryOutcome.COMMITTED, Optional.empty());
    } catch (KafkaException e) {
      // Any commit error leaves the producer fatal; closing it must not try to abort anything.
      producer.close(Duration.ZERO);
      return new RecoveryCommitResult(transaction, classify(e), Optional.of(e));
    } catch (RuntimeException e) {
      producer.close(Duration.ZERO);
      throw e;
    }
  }

  private static RecoveryOutcome classify(KafkaException error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidTxnStateException) {
        return RecoveryOutcome.ABORTED_BY_BROKER;
      }
      if (cause instanceof ProducerFencedException) {
        return RecoveryOutcome.FENCED;
      }
      if (cause instanceof InvalidPidMappingException) {
        return RecoveryOutcome.UNKNOWN_PRODUCER_ID;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    throw error;
  }
}
