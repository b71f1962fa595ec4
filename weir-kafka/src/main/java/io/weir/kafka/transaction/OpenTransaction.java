package io.weir.kafka.transaction;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * A transaction the broker's coordinator holds open (ongoing or being completed), as described by
 * the Admin API.
 *
 * @param state the coordinator's state: ONGOING, PREPARE_COMMIT, PREPARE_ABORT, ...
 * @param startTime when the transaction began; empty when the broker did not say
 */
public record OpenTransaction(
    String transactionalId,
    long producerId,
    int producerEpoch,
    String state,
    Optional<Instant> startTime,
    Duration timeout,
    Set<TopicPartition> partitions,
    int coordinatorId) {

  public OpenTransaction {
    partitions = Set.copyOf(partitions);
  }

  /** How long the transaction has been open at {@code now}; empty when the start is unknown. */
  public Optional<Duration> age(Instant now) {
    return startTime.map(start -> Duration.between(start, now));
  }
}
