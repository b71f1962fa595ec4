package io.weir.kafka.sink;

import io.weir.kafka.transaction.PendingTransaction;
import java.io.Serializable;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * One Kafka transaction of the exactly-once sink. What a checkpoint keeps of it is the
 * transactional id, its index in the sink's pool, its record count, and — once pre-committed — the
 * producer id and epoch that let a new process commit it and the offset of its marker record, which
 * proves its outcome ({@link TransactionMarkers}). The producer itself exists only in the process
 * that began the transaction.
 */
final class KafkaTransaction implements Serializable {
  // The value computed for the form before markers existed, so that such checkpoints still restore;
  // their new fields read as 0 and false, hence the flag rather than an offset of -1.
  private static final long serialVersionUID = 7335805936823095441L;

  private final String transactionalId;
  private final int poolIndex;
  private long producerId = -1;
  private short epoch = -1;
  private long recordCount;
  private boolean marked;
  private long markerOffset;
  private final transient KafkaProducer<byte[], byte[]> producer;
  // The highest offset written in each partition; known only in the process that wrote it.
  private transient Map<Integer, Long> writtenOffsets;

  KafkaTransaction(String transactionalId, int poolIndex, KafkaProducer<byte[], byte[]> producer) {
    this.transactionalId = transactionalId;
    this.poolIndex = poolIndex;
    this.producer = producer;
  }

  String transactionalId() {
    return transactionalId;
  }

  int poolIndex() {
    return poolIndex;
  }

  /** The producer that began it, or null when it was restored from a checkpoint. */
  KafkaProducer<byte[], byte[]> producer() {
    return producer;
  }

  /** Notes that a record was sent in this transaction. */
  void recordSent() {
    recordCount++;
  }

  /** The records sent in it; known after a restore only when {@link #isMarked}. */
  long recordCount() {
    return recordCount;
  }

  /**
   * Whether a record was sent: a transaction without records never starts on the broker, and
   * resuming one would be answered as if the broker had aborted it.
   */
  boolean hasRecords() {
    return recordCount > 0;
  }

  void preCommitted(PendingTransaction pending, long markerOffset, Map<Integer, Long> written) {
    this.writtenOffsets = Map.copyOf(written);
    this.producerId = pending.producerId();
    this.epoch = pending.epoch();
    this.markerOffset = markerOffset;
    this.marked = true;
  }

  /**
   * The highest offset it wrote in each partition of the sink's topic, by partition; empty when it
   * was restored from a checkpoint or holds no records.
   */
  Map<Integer, Long> writtenOffsets() {
    return writtenOffsets == null ? Map.of() : writtenOffsets;
  }

  /** Whether its marker was written: pre-committed by a version that writes markers. */
  boolean isMarked() {
    return marked;
  }

  /** The offset of its marker record; only when {@link #isMarked}. */
  long markerOffset() {
    return markerOffset;
  }

  boolean isPreCommitted() {
    return producerId >= 0;
  }

  PendingTransaction pending() {
    return new PendingTransaction(transactionalId, producerId, epoch);
  }

  @Override
  public String toString() {
    return transactionalId
        + (isPreCommitted() ? " (producer " + producerId + ", epoch " + epoch + ")" : "");
  }
}
