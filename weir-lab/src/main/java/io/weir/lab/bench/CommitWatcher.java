package io.weir.lab.bench;

import io.weir.examples.SeedRecords;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads an output topic from the beginning on its own thread and notes, per record id (the seed
 * record's unique timestamp), when it first became visible to a reader of the given isolation
 * level. Times are {@link System#nanoTime()} of this JVM, so they compare with the loader's.
 */
final class CommitWatcher implements AutoCloseable {
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final long firstId;
  private final long[] visibleNanos;
  private final Thread thread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private volatile long distinct;
  private volatile long firstArrivalNanos;
  private volatile long lastArrivalNanos;
  private volatile long arrivalAfterMark;
  private volatile Map<Integer, Long> markOffsets;
  private final String topic;
  private final String bootstrap;
  private volatile RuntimeException failure;

  /** Watches ids {@code firstId .. firstId + ids - 1} in {@code topic}. */
  CommitWatcher(
      String bootstrap,
      String topic,
      int expectedPartitions,
      boolean committedOnly,
      long firstId,
      int ids) {
    Properties properties = OutputVerifier.readerProperties(bootstrap, committedOnly);
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
    // The client's default wait (500 ms), not a short one: the broker answers a waiting fetch as
    // soon as records are visible to this reader (a commit's markers move the stable offset), so
    // a longer wait delays no arrival. With 20 ms, two watchers and the broker answering some 100
    // empty fetches a second took about 0.3 of a core from the measured process as it started.
    properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
    this.consumer = new KafkaConsumer<>(properties);
    this.topic = topic;
    this.bootstrap = bootstrap;
    List<TopicPartition> partitions = partitionsOf(topic, expectedPartitions);
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    // Looked up now, not in the first poll: the measured process is launched once this returns,
    // and the lookup would otherwise run beside its start.
    partitions.forEach(consumer::position);
    this.firstId = firstId;
    this.visibleNanos = new long[ids];
    this.thread = new Thread(this::pollLoop, "bench watcher " + topic);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * The topic's partitions once the broker's metadata lists all of them: right after the topic was
   * created it may list fewer, and a reader assigned to fewer would miss records.
   */
  private List<TopicPartition> partitionsOf(String topic, int expected) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic);
      if (infos != null && infos.size() >= expected) {
        return infos.stream().map(info -> new TopicPartition(topic, info.partition())).toList();
      }
      if (System.nanoTime() > deadline) {
        consumer.close();
        throw new LabUserError(
            "The topic " + topic + " did not show " + expected + " partitions within 30 s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LabUserError("Interrupted while waiting for the topic " + topic);
      }
    }
  }

  /**
   * Reads until every watched id was seen: a watcher of the first output (one id) stops right after
   * it instead of reading the whole run beside the measured process, on the cores that process
   * needs. The consumer is closed by {@link #close}, once this thread has ended.
   */
  private void pollLoop() {
    try {
      while (running.get() && distinct < visibleNanos.length) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
        if (records.isEmpty()) {
          continue;
        }
        long now = System.nanoTime();
        note(records, now);
      }
    } catch (RuntimeException e) {
      if (running.get()) {
        failure = e;
      }
    }
  }

  private void note(ConsumerRecords<byte[], byte[]> records, long now) {
    if (firstArrivalNanos == 0) {
      firstArrivalNanos = now;
    }
    lastArrivalNanos = now;
    Map<Integer, Long> mark = markOffsets;
    long seen = distinct;
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (arrivalAfterMark == 0
          && mark != null
          && record.offset() >= mark.getOrDefault(record.partition(), Long.MAX_VALUE)) {
        arrivalAfterMark = now;
      }
      String value = new String(record.value(), StandardCharsets.UTF_8);
      long index = SeedRecords.timestamp(value) - SeedRecords.BASE_TIMESTAMP - firstId;
      if (index >= 0 && index < visibleNanos.length && visibleNanos[(int) index] == 0) {
        visibleNanos[(int) index] = now;
        seen++;
      }
    }
    distinct = seen;
  }

  /** Distinct watched ids seen so far. */
  long distinct() {
    throwIfFailed();
    return distinct;
  }

  /** Waits until every watched id was seen; false after the timeout. */
  boolean awaitAll(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (distinct() < visibleNanos.length) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /**
   * From now on, notes the first poll that returns a record committed after this moment ({@link
   * #firstArrivalAfterMark}): one at or beyond the end offsets a {@code read_committed} reader sees
   * now, not merely one this watcher reads late.
   */
  void markCommittedEnd() {
    try (KafkaConsumer<byte[], byte[]> probe =
        new KafkaConsumer<>(OutputVerifier.readerProperties(bootstrap, true))) {
      List<TopicPartition> partitions =
          probe.partitionsFor(topic).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      Map<Integer, Long> ends = new HashMap<>();
      probe
          .endOffsets(partitions, Duration.ofSeconds(30))
          .forEach((partition, offset) -> ends.put(partition.partition(), offset));
      arrivalAfterMark = 0;
      markOffsets = ends;
    }
  }

  long firstArrivalAfterMark() {
    return arrivalAfterMark;
  }

  long firstArrivalNanos() {
    return firstArrivalNanos;
  }

  long lastArrivalNanos() {
    return lastArrivalNanos;
  }

  /** When each watched id became visible (0: not yet), by id - firstId. */
  long[] visibleNanos() {
    return visibleNanos;
  }

  private void throwIfFailed() {
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    if (thread.isAlive()) {
      consumer.wakeup();
    }
    thread.join(5000);
    if (!thread.isAlive()) {
      // A consumer is used by one thread at a time: this one only after the reading one ended.
      consumer.close(Duration.ofSeconds(1));
    }
  }
}
