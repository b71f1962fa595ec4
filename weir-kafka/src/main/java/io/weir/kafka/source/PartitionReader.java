package io.weir.kafka.source;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.functions.RuntimeContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reading consumer of one source subtask: with an enumerator, restores its own partitions and
 * takes the enumerator's splits ({@link #add}), the later ones too; without one (an unbounded
 * source driven without a job manager), finds this subtask's partitions at its start; decides where
 * each starts. For a bounded source it knows each split's stopping offset, holds back what lies at
 * or after it, and says when the source is done ({@link #reachedEnd}). Assigned on the task's
 * thread before the reader starts; used on the fetcher's thread from then on.
 */
final class PartitionReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionReader.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

  private final KafkaSourceConfig<?> config;
  private final int subtask;
  private final int parallelism;
  private final PartitionLookup lookup;
  private final KafkaConsumer<byte[], byte[]> consumer;
  // Splits the enumerator assigned, handed from the task's thread to the fetcher's.
  private final BlockingQueue<PartitionOffset> added = new LinkedBlockingQueue<>();
  private final Set<TopicPartition> assigned = new HashSet<>();
  // A bounded source's splits' stopping offsets, as their splits arrive; on the fetcher's thread.
  private final Map<TopicPartition, Long> stoppingOffsets = new HashMap<>();
  // Set on the task's thread after the last split was handed over (add), read on the fetcher's.
  private volatile boolean noMoreSplits;
  private RestoredPositions restored = RestoredPositions.none();
  // Topic ids asked for in the background (at a start that has none to check, and for the topics
  // of splits the enumerator assigned); recorded once they arrive. On the fetcher's thread once it
  // started.
  private final List<CompletableFuture<Map<String, String>>> askedIds = new ArrayList<>();

  PartitionReader(KafkaSourceConfig<?> config, RuntimeContext context) {
    this.config = config;
    this.subtask = context.subtaskIndex();
    this.parallelism = context.parallelism();
    this.lookup =
        new PartitionLookup(
            config, "weir-" + context.jobName() + "-" + context.operatorName() + "-" + subtask);
    this.consumer = lookup.consumer();
  }

  KafkaConsumer<byte[], byte[]> consumer() {
    return consumer;
  }

  /**
   * Assigns this subtask's partitions and seeks each to its start: the checkpoint's offset; else,
   * for a partition added after the checkpoint, its earliest offset; else the group's offset; else
   * the configured starting offsets. Checks the restored topic ids first ({@link
   * RestoredPositions#checkTopicIds}) and puts the id of every topic the source reads into {@code
   * topicIds}; when the checkpoint has none to check, they are asked for in the background and put
   * there by {@link #maybeRecordStartIds}. Returns the start offsets.
   *
   * @throws SuppressRestartsException when the brokers cannot be reached within the start timeout,
   *     or a restored topic was re-created and the policy says fail
   */
  Map<TopicPartition, Long> assign(
      RestoredPositions restoredPositions,
      OptionalLong checkpointId,
      Map<String, String> topicIds) {
    return assign(lookup.list(true), restoredPositions, checkpointId, topicIds);
  }

  /**
   * Assigns the partitions of the checkpoint that are this subtask's and seeks each to its start,
   * as {@link #assign} does, without listing: the source's enumerator assigns the others ({@link
   * #add}). A restored topic re-created since is checked as there; under the {@code EARLIEST}
   * policy its partitions start at their earliest offsets.
   */
  Map<TopicPartition, Long> assignRestored(
      RestoredPositions restoredPositions,
      OptionalLong checkpointId,
      Map<String, String> topicIds) {
    return assign(
        new ArrayList<>(restoredPositions.offsets().keySet()),
        restoredPositions,
        checkpointId,
        topicIds);
  }

  private Map<TopicPartition, Long> assign(
      List<TopicPartition> listed,
      RestoredPositions restoredPositions,
      OptionalLong checkpointId,
      Map<String, String> topicIds) {
    if (restoredPositions.topicIds().isEmpty()) {
      // Nothing to check them against (a fresh start, or a checkpoint that has none): they are
      // only recorded for a later restore, and the start need not wait for an admin client.
      askedIds.add(describeInBackground(topicsOf(listed)));
      restored = restoredPositions;
    } else {
      topicIds.putAll(describe(topicsOf(listed), true));
      restored =
          restoredPositions.checkTopicIds(topicIds, config.recreatedTopicPolicy(), checkpointId);
    }
    List<TopicPartition> mine = mine(listed);
    Map<TopicPartition, Long> starts = startOffsets(mine);
    if (!config.bounded()) {
      // A bounded source's restored partition waits for its split from the enumerator, which
      // brings its stopping offset: read before, it could be read past it.
      consumer.assign(mine);
      starts.forEach(consumer::seek);
      assigned.addAll(mine);
    }
    return starts;
  }

  /** What the restored checkpoint says, after {@link #assign} checked its topic ids. */
  RestoredPositions restored() {
    return restored;
  }

  /**
   * The topic ids asked for in the background that arrived since the last call (else none). A
   * failed request is not repeated here: a split of such a topic assigned later asks again.
   */
  Map<String, String> maybeArrivedIds() {
    Map<String, String> ids = new HashMap<>();
    for (Iterator<CompletableFuture<Map<String, String>>> asked = askedIds.iterator();
        asked.hasNext(); ) {
      CompletableFuture<Map<String, String>> request = asked.next();
      if (!request.isDone()) {
        continue;
      }
      asked.remove();
      try {
        ids.putAll(request.join());
      } catch (CompletionException e) {
        LOG.warn(
            "Cannot learn the topic ids of {}: {}; a split of them assigned later asks again",
            config.describeTopics(),
            e.getCause().toString());
      }
    }
    return ids;
  }

  /**
   * Splits the enumerator assigned to this subtask, with their start offsets; on the task's thread.
   * The fetcher's thread assigns and seeks them at its next look ({@link #maybeTakeAdded}); one
   * already assigned keeps its position and takes the split's stopping offset.
   */
  void add(List<PartitionOffset> splits) {
    added.addAll(splits);
  }

  /** The enumerator assigns no more splits, after those handed to {@link #add}; task's thread. */
  void noMoreSplits() {
    noMoreSplits = true;
  }

  /**
   * Whether the enumerator said it assigns no more splits. Asked before {@link #maybeTakeAdded}, a
   * true answer means that look took every split there is.
   */
  boolean toldNoMoreSplits() {
    return noMoreSplits;
  }

  /** Whether any partition is assigned: a consumer without one cannot poll. */
  boolean hasPartitions() {
    return !assigned.isEmpty();
  }

  /**
   * Assigns the splits handed over by {@link #add} (waiting up to {@code wait} for the first) and
   * seeks each to its start; asks for the ids of topics not in {@code knownTopics} in the
   * background ({@link #maybeArrivedIds}), so the first poll of a new split waits for no admin
   * client. Their starts are the reader's already.
   */
  void maybeTakeAdded(Set<String> knownTopics, Duration wait) throws InterruptedException {
    List<PartitionOffset> splits = new ArrayList<>();
    PartitionOffset first =
        wait.isZero() ? added.poll() : added.poll(wait.toMillis(), MILLISECONDS);
    if (first == null) {
      return;
    }
    splits.add(first);
    added.drainTo(splits);
    Map<TopicPartition, Long> starts = new HashMap<>();
    Set<String> newTopics = new HashSet<>();
    for (PartitionOffset split : splits) {
      TopicPartition partition = split.topicPartition();
      if (split.stoppingOffset() != null) {
        stoppingOffsets.put(partition, split.stoppingOffset());
      }
      if (assigned.add(partition)) {
        starts.put(partition, split.offset());
        if (!knownTopics.contains(split.topic())) {
          newTopics.add(split.topic());
        }
      }
    }
    consumer.assign(new ArrayList<>(assigned));
    starts.forEach(consumer::seek);
    if (!newTopics.isEmpty()) {
      askedIds.add(describeInBackground(newTopics));
    }
  }

  /**
   * A bounded source is done when {@code toldNoMoreSplits} (asked before the last {@link
   * #maybeTakeAdded}) and every split's position reached its stopping offset.
   */
  boolean reachedEnd(boolean toldNoMoreSplits) {
    if (!toldNoMoreSplits) {
      return false;
    }
    for (Map.Entry<TopicPartition, Long> stop : stoppingOffsets.entrySet()) {
      if (consumer.position(stop.getKey()) < stop.getValue()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The polled records before each split's stopping offset; a partition whose position reached its
   * stop is paused, so the consumer fetches no more of it.
   */
  ConsumerRecords<byte[], byte[]> beforeStops(ConsumerRecords<byte[], byte[]> records) {
    if (stoppingOffsets.isEmpty()) {
      return records;
    }
    List<TopicPartition> stopped = new ArrayList<>();
    Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> kept = new HashMap<>();
    boolean trimmed = false;
    for (TopicPartition partition : records.partitions()) {
      List<ConsumerRecord<byte[], byte[]>> polled = records.records(partition);
      Long stop = stoppingOffsets.get(partition);
      int end = polled.size();
      while (stop != null && end > 0 && polled.get(end - 1).offset() >= stop) {
        end--;
      }
      trimmed |= end < polled.size();
      if (end > 0) {
        kept.put(partition, polled.subList(0, end));
      }
    }
    stoppingOffsets.forEach(
        (partition, stop) -> {
          if (consumer.position(partition) >= stop) {
            stopped.add(partition);
          }
        });
    consumer.pause(stopped);
    return trimmed ? new ConsumerRecords<>(kept, Map.of()) : records;
  }

  private List<TopicPartition> mine(List<TopicPartition> listed) {
    List<TopicPartition> mine = new ArrayList<>();
    for (TopicPartition partition : listed) {
      if (PartitionAssigner.subtaskOf(partition.topic(), partition.partition(), parallelism)
          == subtask) {
        mine.add(partition);
      }
    }
    return mine;
  }

  private Map<String, String> describe(Set<String> topics, boolean atStart) {
    try {
      return TopicIds.describe(config, topics, lookup.timeout(atStart));
    } catch (TimeoutException e) {
      throw lookup.unreachable(atStart, e);
    }
  }

  private CompletableFuture<Map<String, String>> describeInBackground(Set<String> topics) {
    CompletableFuture<Map<String, String>> ids = new CompletableFuture<>();
    Thread describer =
        new Thread(
            () -> {
              try {
                ids.complete(TopicIds.describe(config, topics, PartitionLookup.DISCOVERY_TIMEOUT));
              } catch (RuntimeException e) {
                ids.completeExceptionally(e);
              }
            },
            "weir kafka source topic ids");
    describer.setDaemon(true);
    describer.start();
    return ids;
  }

  private static Set<String> topicsOf(List<TopicPartition> partitions) {
    Set<String> topics = new HashSet<>();
    partitions.forEach(partition -> topics.add(partition.topic()));
    return topics;
  }

  private Map<TopicPartition, Long> startOffsets(List<TopicPartition> partitions) {
    Map<TopicPartition, Long> starts = new HashMap<>();
    Set<TopicPartition> added = new HashSet<>();
    Set<TopicPartition> unknown = new HashSet<>();
    for (TopicPartition partition : partitions) {
      Long offset = restored.offset(partition);
      if (offset != null) {
        starts.put(partition, offset);
      } else if (restored.addedSince(partition)) {
        added.add(partition);
      } else {
        unknown.add(partition);
      }
    }
    if (!added.isEmpty()) {
      // As discovery would have started them, had the job lived to discover them.
      starts.putAll(consumer.beginningOffsets(added));
    }
    starts.putAll(lookup.groupOrConfiguredStarts(unknown));
    return starts;
  }

  /**
   * Closes the consumer on a thread of its own. A cancelled task's thread is interrupted, possibly
   * while it closes, and the consumer reports an interrupted close as an error with a stack trace
   * on every failover; the closing thread is never interrupted. An interrupted caller does not wait
   * for the close to end.
   */
  @Override
  public void close() {
    Thread closer = new Thread(() -> consumer.close(CLOSE_TIMEOUT), "weir kafka source close");
    closer.setDaemon(true);
    closer.start();
    try {
      closer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
