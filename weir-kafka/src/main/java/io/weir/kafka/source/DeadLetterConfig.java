package io.weir.kafka.source;

import java.io.Serializable;
import java.time.Duration;

/**
 * Where a {@link KafkaSource} sends the records that failed the job {@code failures} times at the
 * same partition and offset, and the transactional ids its dead-letter producer uses ({@code
 * <prefix>-<subtask>-<n>}, unique per job and source).
 */
record DeadLetterConfig(
    String topic, int failures, String transactionalIdPrefix, Duration transactionTimeout)
    implements Serializable {

  /** The consumer group that keeps the failure notes (see {@link RecordFailureNotes}). */
  String notesGroup() {
    return transactionalIdPrefix + "-failures";
  }
}
