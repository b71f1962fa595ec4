package io.weir.lab.bench;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Polls a consumer group's committed offsets of the events topic and notes, per event, when an
 * offset covering it was first seen committed ({@link System#nanoTime()} of this JVM). Both engines
 * commit their source's offsets when a checkpoint completes, in the notification that commits their
 * sinks' transactions, so that moment is when the event's effect is committed downstream. Events
 * are where {@link PacedEventWriter} puts them: event {@code i} at offset {@code i / partitions} of
 * partition {@code i mod partitions}. Polls on a thread of its own.
 */
final class CommittedOffsetWatcher implements AutoCloseable {
  /** Often enough that the poll adds little to a latency of a checkpoint interval or more. */
  static final Duration POLL_INTERVAL = Duration.ofMillis(20);

  private final Admin admin;
  private final String group;
  private final String topic;
  private final int partitions;
  private final long[] committedNanos;
  private final long[] coveredOffsets;
  private final ScheduledExecutorService poller;
  private volatile long coveredEvents;
  private volatile RuntimeException failure;

  /**
   * Watches the commits of {@code group} covering events {@code 0 .. events-1} in {@code topic}.
   */
  CommittedOffsetWatcher(String bootstrap, String group, String topic, int partitions, int events) {
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    this.group = group;
    this.topic = topic;
    this.partitions = partitions;
    this.committedNanos = new long[events];
    this.coveredOffsets = new long[partitions];
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "nexmark bench offsets of " + group);
              thread.setDaemon(true);
              return thread;
            });
    poller.scheduleWithFixedDelay(this::poll, 0, POLL_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void poll() {
    if (failure != null) {
      return;
    }
    try {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get(10, TimeUnit.SECONDS);
      note(committed, System.nanoTime());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failure = new IllegalStateException("Reading the offsets of group " + group + " failed", e);
    }
  }

  private void note(Map<TopicPartition, OffsetAndMetadata> committed, long now) {
    long covered = coveredEvents;
    for (int partition = 0; partition < partitions; partition++) {
      OffsetAndMetadata offset = committed.get(new TopicPartition(topic, partition));
      if (offset == null) {
        continue;
      }
      for (long next = coveredOffsets[partition]; next < offset.offset(); next++) {
        long event = next * partitions + partition;
        if (event < committedNanos.length) {
          committedNanos[(int) event] = now;
          covered++;
        }
      }
      coveredOffsets[partition] = Math.max(coveredOffsets[partition], offset.offset());
    }
    coveredEvents = covered;
  }

  /** How many of the watched events the group's committed offsets cover. */
  long coveredEvents() {
    if (failure != null) {
      throw failure;
    }
    return coveredEvents;
  }

  /**
   * When each event was first seen covered (0: not yet), by its position; complete for the events
   * {@link #coveredEvents} counted once this watcher is closed.
   */
  long[] committedNanos() {
    return committedNanos;
  }

  @Override
  public void close() throws InterruptedException {
    poller.shutdownNow();
    poller.awaitTermination(15, TimeUnit.SECONDS);
    admin.close(Duration.ofSeconds(5));
  }
}
