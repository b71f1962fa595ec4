package io.weir.runtime.monitor;

import java.util.List;

/**
 * What the brokers say about a job's Kafka sources and sinks.
 *
 * @param error why part of it could not be read, or null
 */
public record KafkaStatus(
    List<SinkTransactions> sinks, List<SourcePartition> partitions, String error) {
  public static final KafkaStatus EMPTY = new KafkaStatus(List.of(), List.of(), null);

  public KafkaStatus {
    sinks = List.copyOf(sinks);
    partitions = List.copyOf(partitions);
  }

  /** Records left to read over every source partition. */
  public long totalLag() {
    return partitions.stream().mapToLong(p -> Math.max(0, p.lag())).sum();
  }

  /**
   * A transactional Kafka sink and its transactions that the broker holds open (ongoing or being
   * completed); a pre-committed transaction waiting for its checkpoint's notification is among
   * them.
   */
  public record SinkTransactions(
      String operatorUid,
      String operatorName,
      String topic,
      String transactionalIdPrefix,
      List<Transaction> transactions) {
    public SinkTransactions {
      transactions = List.copyOf(transactions);
    }
  }

  /**
   * @param subtask the sink subtask that owns the transactional id ({@code prefix-subtask-n}), or
   *     -1 when the id does not say
   * @param ageMillis since the broker saw the transaction start, or -1 when it does not say
   */
  public record Transaction(
      String transactionalId,
      int subtask,
      long producerId,
      int producerEpoch,
      String state,
      long ageMillis,
      List<String> partitions) {
    public Transaction {
      partitions = List.copyOf(partitions);
    }
  }

  /**
   * One partition a Kafka source reads.
   *
   * @param position the next offset the job will read, as its consumer group last committed it
   *     (with the completion of a checkpoint), or -1 before the first commit
   * @param endOffset the partition's last stable offset
   * @param lag records between the position and the end
   */
  public record SourcePartition(
      String operatorUid,
      String operatorName,
      String group,
      String topic,
      int partition,
      long position,
      long endOffset,
      long lag) {}
}
