package io.weir.kafka.sink;

import io.weir.runtime.startup.StartupPhases;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;

/**
 * The committing half of one subtask of {@link TransactionalKafkaSink}: commits a pre-committed
 * transaction with the producer that began it, once its checkpoint completed. Runs on the sink's
 * commit thread, one transaction at a time in checkpoint order; the two-phase-commit engine decides
 * about retries and timeouts from what a commit throws.
 *
 * <p>What the broker's transactions make of a failed commit: any error leaves the producer in a
 * fatal state, so it is discarded (its id's next use makes a new one, whose initialisation fences
 * it); the transaction stays pending, which keeps its id out of use until the task ends, and the
 * restore resumes and commits it from its producer id and epoch. A transaction without a producer
 * here (restored from a checkpoint, begun by another process) is resumed the same way.
 */
final class KafkaTransactionCommitter {
  private final TransactionalProducers producers;
  private final KafkaTransactionRecovery recovery;
  // Commit thread only.
  private boolean committedRecords;

  KafkaTransactionCommitter(TransactionalProducers producers, KafkaTransactionRecovery recovery) {
    this.producers = producers;
    this.recovery = recovery;
  }

  void commit(KafkaTransaction transaction) {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      recovery.recoverAndCommit(transaction);
      return;
    }
    try {
      producer.commitTransaction();
      if (!committedRecords && transaction.hasRecords()) {
        committedRecords = true;
        StartupPhases.reached(
            "sink " + producers.subtaskPrefix() + "* committed its first records");
      }
    } catch (KafkaException e) {
      producers.discard(transaction.poolIndex());
      throw e;
    }
  }
}
