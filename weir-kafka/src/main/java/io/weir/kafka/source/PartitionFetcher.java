package io.weir.kafka.source;

import io.weir.runtime.startup.StartupPhases;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Polls one source subtask's consumer on a thread of its own and hands each poll's result to the
 * task's thread through a small bounded queue: a task that does not take (backpressure, or a
 * stop-with-savepoint) stops the polls. The consumer is used on this thread only once it started;
 * the assignment of the enumerator's splits, the out-of-range policy and a bounded source's end are
 * decided here: that end comes once the enumerator said it assigns no more splits and each split
 * reached its stopping offset, and no record at or after a stop is handed over.
 */
final class PartitionFetcher implements AutoCloseable {
  private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
  private static final int FETCHES_AHEAD = 2;

  private final PartitionReader partitions;
  private final OutOfRangeOffsets outOfRange;
  private final boolean bounded;
  // With watermarks, an empty poll is handed over too: idleness is decided on the reader's polls.
  private final boolean handOverEmptyPolls;
  private final String subtask;
  private final Set<String> knownTopics;
  // Partitions come from the source's enumerator instead of this subtask's own discovery.
  private final boolean splitsFromEnumerator;
  private final BlockingQueue<KafkaFetch> fetches = new ArrayBlockingQueue<>(FETCHES_AHEAD);
  private final Thread thread;
  private final Object availabilityLock = new Object();
  // Guarded by availabilityLock.
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private volatile boolean running = true;

  PartitionFetcher(
      PartitionReader partitions,
      OutOfRangeOffsets outOfRange,
      boolean bounded,
      int subtaskIndex,
      boolean handOverEmptyPolls,
      Set<String> knownTopics,
      boolean splitsFromEnumerator) {
    this.partitions = partitions;
    this.outOfRange = outOfRange;
    this.bounded = bounded;
    this.handOverEmptyPolls = handOverEmptyPolls;
    this.subtask = "source subtask " + subtaskIndex;
    this.knownTopics = new HashSet<>(knownTopics);
    this.splitsFromEnumerator = splitsFromEnumerator;
    this.thread = new Thread(this::run, "weir kafka fetcher " + subtaskIndex);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** The next fetch, or null when none is there; on the task thread. */
  KafkaFetch poll() {
    KafkaFetch fetch = fetches.poll();
    if (fetch == null) {
      synchronized (availabilityLock) {
        if (available.isDone() && fetches.isEmpty()) {
          available = new CompletableFuture<>();
        }
      }
      // A fetch that arrived between the two looks completed the old future, not the new one.
      fetch = fetches.poll();
    }
    return fetch;
  }

  /** Completes when a fetch is there. */
  CompletableFuture<Void> available() {
    synchronized (availabilityLock) {
      if (!fetches.isEmpty()) {
        available.complete(null);
      }
      return available;
    }
  }

  private void run() {
    StartupPhases.reached(subtask + " polls");
    boolean fetched = false;
    try {
      while (running) {
        // Asked before the look for splits: once it is true, that look takes the last of them.
        boolean toldNoMoreSplits = partitions.toldNoMoreSplits();
        KafkaFetch fetch = fetchOnce();
        if (!fetched && !fetch.records().isEmpty()) {
          fetched = true;
          StartupPhases.reached(subtask + " fetched its first records");
        }
        if (!fetch.isEmpty() || handOverEmptyPolls) {
          handOver(fetch);
        }
        if (bounded && partitions.reachedEnd(toldNoMoreSplits)) {
          handOver(KafkaFetch.END);
          return;
        }
      }
    } catch (WakeupException | InterruptedException e) {
      // closed
    } catch (RuntimeException e) {
      if (running) {
        handOverQuietly(KafkaFetch.failed(e));
      }
    }
  }

  private KafkaFetch fetchOnce() throws InterruptedException {
    if (splitsFromEnumerator) {
      // A consumer without partitions cannot poll: it waits for its first split instead.
      partitions.maybeTakeAdded(
          knownTopics, partitions.hasPartitions() ? Duration.ZERO : POLL_TIMEOUT);
    }
    ConsumerRecords<byte[], byte[]> records = ConsumerRecords.empty();
    Map<TopicPartition, Long> positions = new HashMap<>();
    try {
      if (!splitsFromEnumerator || partitions.hasPartitions()) {
        records = partitions.consumer().poll(POLL_TIMEOUT);
      }
      if (bounded) {
        records = partitions.beforeStops(records);
      }
    } catch (OffsetOutOfRangeException e) {
      positions.putAll(outOfRange.handle(e, partitions.consumer()));
    }
    Map<String, String> topicIds = partitions.maybeArrivedIds();
    knownTopics.addAll(topicIds.keySet());
    return new KafkaFetch(records, positions, topicIds, false, null);
  }

  private void handOver(KafkaFetch fetch) throws InterruptedException {
    fetches.put(fetch);
    synchronized (availabilityLock) {
      available.complete(null);
    }
  }

  private void handOverQuietly(KafkaFetch fetch) {
    try {
      handOver(fetch);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the polls, waits for the thread, then closes the consumer. */
  @Override
  public void close() {
    running = false;
    partitions.consumer().wakeup();
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    partitions.close();
  }
}
