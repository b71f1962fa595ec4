package io.weir.kafka.source;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.source.DeadLetterCounting;
import io.weir.api.source.GroupPositionedSource;
import io.weir.api.source.ParallelSourceFunction;
import io.weir.api.source.RecordFailureException;
import io.weir.api.source.SourcePosition;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.kafka.ClientGauges;
import io.weir.kafka.transaction.TransactionalIds;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.startup.StartupPhases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads Kafka topics with exactly-once positions: each subtask reads the partitions assigned to it,
 * keeps the next offset of each and the ids of the topics it knows ({@link DiscoveredTopics}) in
 * union list states snapshotted with the checkpoint at the barrier, and commits a completed
 * checkpoint's offsets to the consumer group when notified. Start position: the restored
 * checkpoint; else, for a partition added after it, the earliest offset; else the group's committed
 * offsets; else the configured starting offsets — resolved in {@link #open()}, before the task
 * reports running, so that the first checkpoint already holds an offset for every partition ({@link
 * RestoredPositions}). A topic re-created since the checkpoint follows the {@link
 * RecreatedTopicPolicy}, an offset no longer in the log the {@link OutOfRangePolicy}.
 *
 * <p>With a dead-letter topic ({@link KafkaSourceBuilder#deadLetterTopic}) a record that failed the
 * job too often goes there instead ({@link DeadLetters}); the source then also is a {@link
 * RecoverableSink}, whose transactions the job's recovery step settles before the tasks start.
 */
public final class KafkaSource<T> extends AbstractRichFunction
    implements ParallelSourceFunction<T>,
        DeadLetterCounting,
        CheckpointedFunction,
        CheckpointListener,
        RecoverableSink,
        GroupPositionedSource {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSource.class);
  private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
  private static final long WATERMARK_INTERVAL_MILLIS = 200;
  // A partition's fetched batch (up to max.poll.records) is emitted in holds of the checkpoint
  // lock this long, so that a barrier waits for at most these, not the whole batch: while the
  // code is still cold a batch of 500 takes up to 100 ms, and the first output's checkpoint
  // comes just then.
  private static final int RECORDS_PER_LOCK = 64;

  private final KafkaSourceConfig<T> config;
  private transient ListState<PartitionOffset> offsetState;
  private transient ListState<DiscoveredTopics> discoveredState;
  private transient RestoredPositions restored;
  private transient Map<TopicPartition, Long> nextOffsets;
  // The id of every topic this subtask knows; written on the source thread under the lock.
  private transient Map<String, String> topicIds;
  private transient OffsetCommitter committer;
  private transient volatile boolean running;
  private transient volatile KafkaConsumer<byte[], byte[]> consumer;
  // Opened with its start positions resolved; taken (and closed) by run, or closed by close.
  private transient AtomicReference<PartitionReader> openedReader;
  private transient Map<TopicPartition, Long> startOffsets;
  private transient OutOfRangeOffsets outOfRange;
  private transient long skippedRecords;
  private transient FunctionInitializationContext initializationContext;
  private transient DeadLetters deadLetters;

  KafkaSource(KafkaSourceConfig<T> config) {
    this.config = config;
  }

  KafkaSourceConfig<T> config() {
    return config;
  }

  public static <T> KafkaSourceBuilder<T> builder() {
    return new KafkaSourceBuilder<>();
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    offsetState =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>("kafka-partition-offsets"));
    discoveredState =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>("kafka-discovered-topics"));
    restored = RestoredPositions.of(offsetState.get(), discoveredState.get());
    nextOffsets = new HashMap<>();
    topicIds = new HashMap<>();
    initializationContext = context;
  }

  /**
   * Connects and resolves every assigned partition's start offset; called on the source thread with
   * the checkpoint lock held, before the task reports running and before any checkpoint.
   */
  @Override
  public void open() throws Exception {
    PartitionReader reader = new PartitionReader(config, getRuntimeContext());
    openedReader = new AtomicReference<>(reader);
    consumer = reader.consumer();
    ClientGauges.addConsumer(getRuntimeContext().metricGroup(), consumer);
    startOffsets = reader.assign(restored, initializationContext.restoredCheckpointId(), topicIds);
    restored = reader.restored();
    // The task holds the checkpoint lock around open, and no checkpoint runs before it returns.
    nextOffsets.putAll(startOffsets);
    outOfRange = new OutOfRangeOffsets(config.outOfRangePolicy());
    if (config.deadLetters() != null) {
      // After the partitions' positions: an unreachable broker is reported by the reader's start
      // timeout, not by the dead-letter producer's.
      deadLetters =
          DeadLetters.open(
              config, initializationContext, getRuntimeContext(), startOffsets.keySet());
    }
    if (config.commitOffsetsOnCheckpoint()) {
      committer =
          new OffsetCommitter(
              config.bootstrapServers(),
              config.groupId(),
              config.consumerProperties(),
              Failpoints.of(getRuntimeContext()));
      committer.warmUpInBackground();
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    List<PartitionOffset> offsets = new ArrayList<>();
    nextOffsets.forEach(
        (tp, offset) -> offsets.add(new PartitionOffset(tp.topic(), tp.partition(), offset)));
    // Partitions restored but not (yet) assigned here keep their offsets in the union state.
    restored
        .offsets()
        .forEach(
            (tp, offset) -> {
              if (!nextOffsets.containsKey(tp) && isMine(tp)) {
                offsets.add(new PartitionOffset(tp.topic(), tp.partition(), offset));
              }
            });
    offsetState.update(offsets);
    // Topics restored but gone now keep their ids, so that one created again is still noticed.
    Map<String, String> discovered = new HashMap<>(restored.topicIds());
    discovered.putAll(topicIds);
    discoveredState.update(List.of(new DiscoveredTopics(discovered)));
    if (deadLetters != null) {
      deadLetters.snapshotState(context);
    }
    if (committer != null) {
      committer.checkpointTaken(context.checkpointId(), nextOffsets);
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    if (deadLetters != null) {
      deadLetters.notifyCheckpointComplete(checkpointId);
    }
    if (committer != null) {
      committer.checkpointComplete(checkpointId);
    }
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    if (deadLetters != null) {
      deadLetters.notifyCheckpointAborted(checkpointId);
    }
    if (committer != null) {
      committer.checkpointAborted(checkpointId);
    }
  }

  @Override
  public void run(SourceContext<T> context) throws Exception {
    running = true;
    PartitionWatermarks<T> watermarks =
        config.watermarkStrategy() == null
            ? null
            : new PartitionWatermarks<>(config.watermarkStrategy());
    PartitionReader opened = openedReader.getAndSet(null);
    if (opened == null) {
      return;
    }
    try (PartitionReader reader = opened) {
      long now = System.currentTimeMillis();
      for (TopicPartition partition : startOffsets.keySet()) {
        register(watermarks, partition, now);
      }
      long nextWatermark = now + WATERMARK_INTERVAL_MILLIS;
      StartupPhases.reached("source subtask " + getRuntimeContext().subtaskIndex() + " polls");
      boolean fetched = false;
      while (running && !(config.bounded() && reader.reachedEnd(nextOffsets))) {
        ConsumerRecords<byte[], byte[]> records;
        try {
          records = reader.consumer().poll(POLL_TIMEOUT);
        } catch (WakeupException e) {
          break;
        } catch (OffsetOutOfRangeException e) {
          outOfRange.handle(e, reader.consumer(), context.getCheckpointLock(), nextOffsets);
          continue;
        }
        if (!fetched && !records.isEmpty()) {
          fetched = true;
          StartupPhases.reached(
              "source subtask "
                  + getRuntimeContext().subtaskIndex()
                  + " fetched its first records");
        }
        for (TopicPartition partition : records.partitions()) {
          emit(context, partition, records.records(partition), watermarks);
        }
        now = System.currentTimeMillis();
        if (watermarks != null && now >= nextWatermark) {
          emitWatermark(context, watermarks, now);
          nextWatermark = now + WATERMARK_INTERVAL_MILLIS;
        }
        reader.maybeRecordStartIds(context.getCheckpointLock(), topicIds);
        for (TopicPartition added :
            reader.maybeDiscover(context.getCheckpointLock(), nextOffsets, topicIds)) {
          register(watermarks, added, now);
        }
      }
    } finally {
      consumer = null;
    }
  }

  private void register(PartitionWatermarks<T> watermarks, TopicPartition partition, long now) {
    if (watermarks != null) {
      watermarks.add(partition, now);
    }
  }

  private void emit(
      SourceContext<T> context,
      TopicPartition partition,
      List<ConsumerRecord<byte[], byte[]>> records,
      PartitionWatermarks<T> watermarks)
      throws Exception {
    long now = watermarks == null ? 0 : System.currentTimeMillis();
    for (int from = 0; from < records.size(); from += RECORDS_PER_LOCK) {
      List<ConsumerRecord<byte[], byte[]>> hold =
          records.subList(from, Math.min(records.size(), from + RECORDS_PER_LOCK));
      emitHeld(context, partition, hold, watermarks, now);
    }
  }

  /** Emits {@code records} under one hold of the lock. */
  private void emitHeld(
      SourceContext<T> context,
      TopicPartition partition,
      List<ConsumerRecord<byte[], byte[]>> records,
      PartitionWatermarks<T> watermarks,
      long now)
      throws Exception {
    synchronized (context.getCheckpointLock()) {
      // The next offset is stored once per hold, not per record (a boxed long and a map write
      // each): a snapshot takes the checkpoint lock, so none sees the hold half done.
      long next = -1;
      try {
        for (ConsumerRecord<byte[], byte[]> record : records) {
          emitOne(context, partition, record, watermarks, now);
          next = record.offset() + 1;
        }
      } finally {
        if (next >= 0) {
          nextOffsets.put(partition, next);
        }
      }
    }
  }

  private void emitOne(
      SourceContext<T> context,
      TopicPartition partition,
      ConsumerRecord<byte[], byte[]> record,
      PartitionWatermarks<T> watermarks,
      long now)
      throws Exception {
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
      context.collectWithTimestamp(value, timestamp);
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
    if (deadLetters != null) {
      deadLetters.sendUnreadable(record, UnreadableRecord.cause(failure));
      return;
    }
    throw new SuppressRestartsException(
        UnreadableRecord.describe(record, failure)
            + " (DeserializationFailurePolicy.SKIP skips such records, a dead-letter topic keeps"
            + " them)",
        failure);
  }

  private void emitWatermark(
      SourceContext<T> context, PartitionWatermarks<T> watermarks, long now) {
    long watermark = watermarks.onPeriodicEmit(now);
    if (watermarks.allIdle()) {
      context.markAsTemporarilyIdle();
    } else if (watermark != Long.MIN_VALUE) {
      context.emitWatermark(watermark);
    }
  }

  private boolean isMine(TopicPartition partition) {
    return PartitionAssigner.subtaskOf(
            partition.topic(), partition.partition(), getRuntimeContext().parallelism())
        == getRuntimeContext().subtaskIndex();
  }

  /** Records skipped by the {@code SKIP} deserialization policy. */
  public long skippedRecords() {
    return skippedRecords;
  }

  /** Records skipped by the {@code EARLIEST} out-of-range policy: deleted before they were read. */
  public long skippedOutOfRange() {
    return outOfRange == null ? 0 : outOfRange.skippedRecords();
  }

  /** Records sent to the dead-letter topic by this subtask since it started. */
  @Override
  public long deadLetterRecords() {
    return deadLetters == null ? 0 : deadLetters.sent();
  }

  /**
   * A start from the group's offsets reconciled with a checkpoint: moves the group's offset of each
   * partition forward to the checkpoint's, whose records the sinks' committed transactions hold.
   * Without a group the source starts from its configured offsets and nothing moves.
   */
  @Override
  public List<String> startNoEarlierThan(List<SourcePosition> checkpointPositions) {
    if (config.groupId() == null) {
      return List.of();
    }
    Map<TopicPartition, Long> floor = new HashMap<>();
    for (SourcePosition position : checkpointPositions) {
      if (position instanceof PartitionOffset offset) {
        floor.put(new TopicPartition(offset.topic(), offset.partition()), offset.offset());
      }
    }
    if (floor.isEmpty()) {
      return List.of();
    }
    try (OffsetCommitter group =
        new OffsetCommitter(
            config.bootstrapServers(),
            config.groupId(),
            config.consumerProperties(),
            Failpoints.none())) {
      return group.advanceTo(floor);
    }
  }

  /**
   * The job's recovery step for the dead-letter topic's transactions; nothing to settle without a
   * dead-letter topic.
   */
  @Override
  public List<TransactionOutcome> recoverTransactions(List<byte[]> restoredStates)
      throws Exception {
    if (config.deadLetters() == null) {
      return List.of();
    }
    return DeadLetters.recoverTransactions(config, restoredStates);
  }

  /**
   * Without a dead-letter topic a fresh start has nothing to settle, and the job need not wait for
   * nothing before it deploys the subtasks; with one, its sink settles every id first.
   */
  @Override
  public boolean abortsLingeringBesideSubtasks() {
    return config.deadLetters() == null;
  }

  @Override
  public void abortLingeringBesideSubtasks(int parallelism) {}

  /** The dead-letter producer's transactional ids, if the source has a dead-letter topic. */
  @Override
  public Optional<String> transactionIdSpace(
      String jobName, String operatorName, String operatorUid) {
    return Optional.ofNullable(config.deadLetters())
        .map(deadLetters -> TransactionalIds.describe(deadLetters.transactionalIdPrefix()));
  }

  @Override
  public void cancel() {
    running = false;
    KafkaConsumer<byte[], byte[]> current = consumer;
    if (current != null) {
      current.wakeup();
    }
  }

  @Override
  public void close() {
    PartitionReader unread = openedReader == null ? null : openedReader.getAndSet(null);
    if (unread != null) {
      unread.close();
    }
    if (committer != null) {
      committer.close();
    }
    if (deadLetters != null) {
      try {
        deadLetters.close();
      } catch (Exception e) {
        LOG.warn("Cannot close the dead-letter producer: {}", e.toString());
      }
    }
  }
}
