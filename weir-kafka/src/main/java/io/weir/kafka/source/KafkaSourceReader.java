package io.weir.kafka.source;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderOutput;
import io.weir.api.source.RecordFailureException;
import io.weir.api.source.SourceReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader of one Kafka source subtask: its splits are the partitions assigned to it (by the
 * source's enumerator, or found by the subtask itself where no enumerator runs), each with the next
 * offset to read, and for a bounded source the offset it stops at; such a reader ends once the
 * enumerator said it assigns no more and every split reached its stop. Records arrive from the
 * {@link PartitionFetcher}'s thread; this reader, on the task's thread, deserializes and emits them
 * a few at a time, sends poison records to the dead-letter topic, keeps the watermarks per
 * partition, and commits a completed checkpoint's offsets to the consumer group ({@link
 * OffsetCommitter}). A checkpoint comes between two polls, so the positions need no lock.
 */
final class KafkaSourceReader<T> implements SourceReader<T, PartitionOffset> {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceReader.class);
  private static final long WATERMARK_INTERVAL_MILLIS = 200;
  // Records emitted per poll: a barrier waits for at most these, not a whole fetch.
  private static final int RECORDS_PER_POLL = 64;

  private final KafkaSourceConfig<T> config;
  private final KafkaSourceOpening opening;
  private final PartitionFetcher fetcher;
  private final PartitionWatermarks<T> watermarks;
  // The stopping offsets of a bounded source's splits, kept in its snapshots with the positions.
  private final Map<TopicPartition, Long> stoppingOffsets = new HashMap<>();
  private SplitAssignmentState assignment;
  private long nextWatermark;
  // The fetch being emitted: its partitions, the current one's records and the next to emit.
  private KafkaFetch fetched;
  private Iterator<TopicPartition> fetchPartitions;
  private TopicPartition partition;
  private List<ConsumerRecord<byte[], byte[]>> records = List.of();
  private int nextRecord;
  private long skippedRecords;

  KafkaSourceReader(KafkaSourceConfig<T> config, KafkaSourceOpening opening) {
    this.config = config;
    this.opening = opening;
    this.watermarks =
        config.watermarkStrategy() == null
            ? null
            : new PartitionWatermarks<>(config.watermarkStrategy());
    long now = System.currentTimeMillis();
    for (TopicPartition started : opening.nextOffsets().keySet()) {
      register(started, now);
    }
    this.assignment =
        SplitAssignmentState.atStart(
            opening.splitsFromEnumerator(), !opening.nextOffsets().isEmpty());
    this.nextWatermark = now + WATERMARK_INTERVAL_MILLIS;
    this.fetcher =
        new PartitionFetcher(
            opening.partitions(),
            opening.outOfRange(),
            config.bounded(),
            opening.subtaskIndex(),
            watermarks != null,
            opening.topicIds().keySet(),
            opening.splitsFromEnumerator());
    fetcher.start();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
    maybeEmitWatermark(output);
    if (nextRecord >= records.size() && !nextPartition()) {
      KafkaFetch fetch = fetcher.poll();
      if (fetch == null) {
        return InputStatus.NOTHING_AVAILABLE;
      }
      if (fetch.failure() != null) {
        throw fetch.failure();
      }
      if (fetch.end()) {
        return InputStatus.END_OF_INPUT;
      }
      apply(fetch);
      return InputStatus.MORE_AVAILABLE;
    }
    emitSome(output);
    return InputStatus.MORE_AVAILABLE;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return fetcher.available();
  }

  /**
   * Partitions the source's enumerator assigned, each with its start offset: from now on in this
   * reader's positions (and so in its next snapshot), assigned to the consumer at the fetcher's
   * next look. A partition this reader reads already, restored from the checkpoint, keeps its
   * position; a bounded source's restored partition, held back until now, is read from there to the
   * split's stopping offset. An empty assignment still tells this reader which partitions are its
   * own: none, for now, so that it may be idle.
   */
  @Override
  public void addSplits(List<PartitionOffset> splits) {
    assignment = SplitAssignmentState.ASSIGNED;
    long now = System.currentTimeMillis();
    List<PartitionOffset> added = new ArrayList<>();
    for (PartitionOffset split : splits) {
      TopicPartition partition = split.topicPartition();
      Long position = opening.nextOffsets().putIfAbsent(partition, split.offset());
      if (position == null) {
        register(partition, now);
        added.add(split);
      } else if (split.stoppingOffset() != null) {
        added.add(split.withOffset(position));
      }
      if (split.stoppingOffset() != null) {
        stoppingOffsets.put(partition, split.stoppingOffset());
      }
    }
    opening.partitions().add(added);
  }

  /** The fetcher ends a bounded source once its splits reached their stops. */
  @Override
  public void notifyNoMoreSplits() {
    assignment = SplitAssignmentState.ASSIGNED;
    opening.partitions().noMoreSplits();
  }

  /** The assigned partitions' next offsets, and restored ones of this subtask not yet assigned. */
  @Override
  public List<PartitionOffset> snapshotState(long checkpointId) {
    Map<TopicPartition, Long> nextOffsets = opening.nextOffsets();
    List<PartitionOffset> splits = new ArrayList<>();
    nextOffsets.forEach(
        (tp, offset) ->
            splits.add(
                new PartitionOffset(tp.topic(), tp.partition(), offset, stoppingOffsets.get(tp))));
    opening
        .restored()
        .offsets()
        .forEach(
            (tp, offset) -> {
              if (!nextOffsets.containsKey(tp) && isMine(tp)) {
                splits.add(new PartitionOffset(tp.topic(), tp.partition(), offset));
              }
            });
    if (opening.committer() != null) {
      opening.committer().checkpointTaken(checkpointId, nextOffsets);
    }
    return splits;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    if (opening.committer() != null) {
      opening.committer().checkpointComplete(checkpointId);
    }
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    if (opening.committer() != null) {
      opening.committer().checkpointAborted(checkpointId);
    }
  }

  /** The ids of the topics this subtask knows, for the source's discovered-topics state. */
  Map<String, String> topicIds() {
    return opening.topicIds();
  }

  long skippedRecords() {
    return skippedRecords;
  }

  long skippedOutOfRange() {
    return opening.outOfRange().skippedRecords();
  }

  @Override
  public void close() {
    fetcher.close();
    if (opening.committer() != null) {
      opening.committer().close();
    }
  }

  /** Takes the fetch's positions and topic ids before any of its records is emitted. */
  private void apply(KafkaFetch fetch) {
    long now = System.currentTimeMillis();
    fetch
        .positions()
        .forEach(
            (started, offset) -> {
              if (opening.nextOffsets().put(started, offset) == null) {
                register(started, now);
              }
            });
    opening.topicIds().putAll(fetch.topicIds());
    fetchPartitions = fetch.records().partitions().iterator();
    records = List.of();
    nextRecord = 0;
    fetched = fetch;
  }

  private boolean nextPartition() {
    if (fetchPartitions == null || !fetchPartitions.hasNext()) {
      return false;
    }
    partition = fetchPartitions.next();
    records = fetched.records().records(partition);
    nextRecord = 0;
    return true;
  }

  private void emitSome(ReaderOutput<T> output) throws Exception {
    long now = watermarks == null ? 0 : System.currentTimeMillis();
    int end = Math.min(records.size(), nextRecord + RECORDS_PER_POLL);
    // The next offset is stored once per poll, not per record (a boxed long and a map write
    // each): no checkpoint comes in between.
    long next = -1;
    try {
      for (; nextRecord < end; nextRecord++) {
        ConsumerRecord<byte[], byte[]> record = records.get(nextRecord);
        emitOne(output, record, now);
        next = record.offset() + 1;
      }
    } finally {
      if (next >= 0) {
        opening.nextOffsets().put(partition, next);
      }
    }
  }

  private void emitOne(ReaderOutput<T> output, ConsumerRecord<byte[], byte[]> record, long now)
      throws Exception {
    DeadLetters deadLetters = opening.deadLetters();
    if (deadLetters != null && deadLetters.isDue(partition, record.offset())) {
      deadLetters.send(record);
      return;
    }
    T value;
    try {
      value = config.deserializer().deserialize(record);
    } catch (Exception e) {
      onUnreadable(record, e);
      return;
    }
    if (value == null) {
      return;
    }
    try {
      long timestamp =
          watermarks == null
              ? record.timestamp()
              : watermarks.onRecord(partition, value, record.timestamp(), now);
      output.collect(value, timestamp);
    } catch (SuppressRestartsException e) {
      throw e;
    } catch (RuntimeException e) {
      if (deadLetters != null) {
        throw deadLetters.failed(record, e);
      }
      // Named by position, so that the engine sees the same record fail again after a
      // restart and stops restarting after the job's failures per record.
      throw new RecordFailureException(partition.toString(), record.offset(), record.value(), e);
    }
  }

  /**
   * A record the deserializer cannot read fails the same way in every attempt, so it is not
   * retried: the SKIP policy skips it, a dead-letter topic takes it at once, else the job fails for
   * good.
   */
  private void onUnreadable(ConsumerRecord<byte[], byte[]> record, Exception failure)
      throws Exception {
    if (config.failurePolicy() == DeserializationFailurePolicy.SKIP) {
      skippedRecords++;
      LOG.warn("{}; skipped", UnreadableRecord.describe(record, failure));
      return;
    }
    if (opening.deadLetters() != null) {
      opening.deadLetters().sendUnreadable(record, UnreadableRecord.cause(failure));
      return;
    }
    throw new SuppressRestartsException(
        UnreadableRecord.describe(record, failure)
            + " (DeserializationFailurePolicy.SKIP skips such records, a dead-letter topic keeps"
            + " them)",
        failure);
  }

  private void maybeEmitWatermark(ReaderOutput<T> output) {
    if (watermarks == null || assignment == SplitAssignmentState.AWAITING_FIRST_ASSIGNMENT) {
      return;
    }
    long now = System.currentTimeMillis();
    if (now < nextWatermark) {
      return;
    }
    nextWatermark = now + WATERMARK_INTERVAL_MILLIS;
    long watermark = watermarks.onPeriodicEmit(now);
    if (watermarks.allIdle()) {
      output.markIdle();
    } else if (watermark != Long.MIN_VALUE) {
      output.emitWatermark(watermark);
    }
  }

  private void register(TopicPartition started, long now) {
    if (watermarks != null) {
      watermarks.add(started, now);
    }
  }

  private boolean isMine(TopicPartition tp) {
    return PartitionAssigner.subtaskOf(tp.topic(), tp.partition(), opening.parallelism())
        == opening.subtaskIndex();
  }
}
