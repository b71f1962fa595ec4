package io.weir.kafka.source;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.source.DeadLetterCounting;
import io.weir.api.source.EnumeratedSource;
import io.weir.api.source.GroupPositionedSource;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourcePosition;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SourceSplit;
import io.weir.api.source.SplitEnumerator;
import io.weir.api.source.SplitEnumeratorContext;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.kafka.ClientGauges;
import io.weir.kafka.transaction.TransactionalIds;
import io.weir.runtime.failpoint.Failpoints;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads Kafka topics with exactly-once positions, as a {@link ReaderSource}: each subtask's {@link
 * KafkaSourceReader} reads the partitions assigned to it (its splits, each with the next offset to
 * read), which the task keeps in the checkpoint at the barrier. An enumerator on the job manager
 * finds the partitions and assigns them: an unbounded source's {@link KafkaSplitEnumerator} as they
 * are created, a bounded source's {@link BoundedSplitEnumerator} once, each with the offset it
 * stops at; an unbounded source driven without one finds its own ({@link PartitionReader}); this
 * function keeps beside them the ids of the topics it knows ({@link DiscoveredTopics}) in a union
 * list state, and the reader commits a completed checkpoint's offsets to the consumer group when
 * notified. Start position: the restored checkpoint; else, for a partition added after it, the
 * earliest offset; else the group's committed offsets; else the configured starting offsets —
 * resolved in {@link #createReader} (with an enumerator: when the enumerator starts, and assigned
 * as the readers register), before the first checkpoint, so that it already holds an offset for
 * every partition ({@link RestoredPositions}). A topic re-created since the checkpoint follows the
 * {@link RecreatedTopicPolicy}, an offset no longer in the log the {@link OutOfRangePolicy}.
 *
 * <p>With a dead-letter topic ({@link KafkaSourceBuilder#deadLetterTopic}) a record that failed the
 * job too often goes there instead ({@link DeadLetters}); the source then also is a {@link
 * RecoverableSink}, whose transactions the job's recovery step settles before the tasks start.
 */
public final class KafkaSource<T> extends AbstractRichFunction
    implements EnumeratedSource<T, PartitionOffset, KafkaEnumeratorState>,
        DeadLetterCounting,
        CheckpointedFunction,
        CheckpointListener,
        RecoverableSink,
        GroupPositionedSource {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSource.class);
  // Where sources kept their offsets before they were the task's splits; read on restore.
  private static final String FORMER_OFFSET_STATE = "kafka-partition-offsets";

  private final KafkaSourceConfig<T> config;
  private transient ListState<DiscoveredTopics> discoveredState;
  private transient List<PartitionOffset> formerOffsets;
  private transient FunctionInitializationContext initializationContext;
  private transient KafkaSourceReader<T> reader;
  private transient RestoredPositions restored;
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
    ListState<PartitionOffset> former =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>(FORMER_OFFSET_STATE));
    formerOffsets = former.get();
    former.update(List.of());
    discoveredState =
        context
            .getOperatorStateStore()
            .getUnionListState(new ListStateDescriptor<>("kafka-discovered-topics"));
    initializationContext = context;
  }

  /**
   * Connects and resolves every assigned partition's start offset; called on the task thread after
   * {@link #open}, before the task reports running and before any checkpoint.
   */
  @Override
  public SourceReader<T, PartitionOffset> createReader(SourceReaderContext context)
      throws Exception {
    if (config.bounded() && !context.splitsFromEnumerator()) {
      throw new IllegalStateException(
          "A bounded Kafka source of "
              + config.describeTopics()
              + " reads to the ends its enumerator captured, and no enumerator runs here");
    }
    List<PartitionOffset> restoredOffsets = new ArrayList<>(formerOffsets);
    for (SourceSplit split : context.restoredSplits()) {
      restoredOffsets.add((PartitionOffset) split);
    }
    PartitionReader partitions = new PartitionReader(config, getRuntimeContext());
    ClientGauges.addConsumer(getRuntimeContext().metricGroup(), partitions.consumer());
    Map<String, String> topicIds = new HashMap<>();
    Map<TopicPartition, Long> startOffsets;
    RestoredPositions restoredPositions =
        RestoredPositions.of(restoredOffsets, discoveredState.get());
    try {
      // With an enumerator, the subtask starts with its restored partitions only; the
      // enumerator assigns the others.
      startOffsets =
          context.splitsFromEnumerator()
              ? partitions.assignRestored(
                  restoredPositions, initializationContext.restoredCheckpointId(), topicIds)
              : partitions.assign(
                  restoredPositions, initializationContext.restoredCheckpointId(), topicIds);
    } catch (RuntimeException e) {
      partitions.close();
      throw e;
    }
    restored = partitions.restored();
    if (config.deadLetters() != null) {
      // After the partitions' positions: an unreachable broker is reported by the reader's start
      // timeout, not by the dead-letter producer's.
      deadLetters =
          DeadLetters.open(
              config, initializationContext, getRuntimeContext(), startOffsets.keySet());
    }
    OffsetCommitter committer = null;
    if (config.commitOffsetsOnCheckpoint()) {
      committer =
          new OffsetCommitter(
              config.bootstrapServers(),
              config.groupId(),
              config.consumerProperties(),
              Failpoints.of(getRuntimeContext()));
      committer.warmUpInBackground();
    }
    KafkaSourceOpening opening =
        new KafkaSourceOpening(
            context.subtaskIndex(),
            context.parallelism(),
            partitions,
            new HashMap<>(startOffsets),
            topicIds,
            restored,
            new OutOfRangeOffsets(config.outOfRangePolicy()),
            committer,
            deadLetters,
            context.splitsFromEnumerator());
    reader = new KafkaSourceReader<>(config, opening);
    return reader;
  }

  /**
   * The enumerator that assigns each partition to one reader: for an unbounded source it discovers
   * partitions as they are created; for a bounded one it captures the partitions and their ends at
   * the job's first start and then tells each reader there are no more.
   */
  @Override
  public Optional<SplitEnumerator<PartitionOffset, KafkaEnumeratorState>> createEnumerator(
      SplitEnumeratorContext<PartitionOffset> context, KafkaEnumeratorState restored) {
    if (config.bounded()) {
      return Optional.of(new BoundedSplitEnumerator(config, context, restored));
    }
    return Optional.of(new KafkaSplitEnumerator(config, context, restored));
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    // Topics restored but gone now keep their ids, so that one created again is still noticed.
    Map<String, String> discovered = new HashMap<>(restored.topicIds());
    discovered.putAll(reader.topicIds());
    discoveredState.update(List.of(new DiscoveredTopics(discovered)));
    if (deadLetters != null) {
      deadLetters.snapshotState(context);
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    if (deadLetters != null) {
      deadLetters.notifyCheckpointComplete(checkpointId);
    }
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    if (deadLetters != null) {
      deadLetters.notifyCheckpointAborted(checkpointId);
    }
  }

  /** Records skipped by the {@code SKIP} deserialization policy. */
  public long skippedRecords() {
    return reader == null ? 0 : reader.skippedRecords();
  }

  /** Records skipped by the {@code EARLIEST} out-of-range policy: deleted before they were read. */
  public long skippedOutOfRange() {
    return reader == null ? 0 : reader.skippedOutOfRange();
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
  public void close() {
    if (deadLetters != null) {
      try {
        deadLetters.close();
      } catch (Exception e) {
        LOG.warn("Cannot close the dead-letter producer: {}", e.toString());
      }
    }
  }
}
