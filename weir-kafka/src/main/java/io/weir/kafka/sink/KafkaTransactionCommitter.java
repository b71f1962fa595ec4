package io.weir.kafka.sink;

import io.weir.runtime.startup.StartupPhases;
import java.util.HashMap;
import java.util.Map;
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
 *
 * <p>Its last step, when the subtask ends successfully, is on the task thread: it waits until what
 * it committed is readable ({@link #awaitCommittedReadable}).
 */
final class KafkaTransactionCommitter {
  private final TransactionalProducers producers;
  private final KafkaTransactionRecovery recovery;
  private final CommittedVisibility visibility;
  // Commit thread only, and the task thread once the commits ended.
  private boolean committedRecords;
  // The highest offset the committed transactions wrote, by partition.
  private final Map<Integer, Long> committedOffsets = new HashMap<>();

  KafkaTransactionCommitter(
      TransactionalProducers producers,
      KafkaTransactionRecovery recovery,
      CommittedVisibility visibility) {
    this.producers = producers;
    this.recovery = recovery;
    this.visibility = visibility;
  }

  void commit(KafkaTransaction transaction) {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      recovery.recoverAndCommit(transaction);
      return;
    }
    try {
      producer.commitTransaction();
      transaction
          .writtenOffsets()
          .forEach((partition, offset) -> committedOffsets.merge(partition, offset, Math::max));
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

  /**
   * The committer's last step when its subtask ends successfully, once every commit returned: waits
   * until {@code read_committed} readers can read everything the committed transactions wrote, or
   * warns once its timeout passed ({@link CommittedVisibility}).
   */
  void awaitCommittedReadable() {
    visibility.await(committedOffsets);
  }
}
