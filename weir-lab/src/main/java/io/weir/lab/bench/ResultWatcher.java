package io.weir.lab.bench;

import io.weir.lab.OutputVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads a results topic from the beginning, {@code read_committed}, on its own thread, while the
 * measured process writes it: counts the rows, notes when the last one became visible ({@link
 * System#nanoTime()} of this JVM) and, when asked, keeps their text for a check against SQL.
 */
final class ResultWatcher implements AutoCloseable {
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions;
  private final Map<TopicPartition, Long> positions = new ConcurrentHashMap<>();
  private final List<String> rows;
  private final Thread thread;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private volatile long count;
  private volatile long lastArrivalNanos;
  private volatile RuntimeException failure;

  /**
   * Watches {@code topic} (which has {@code partitions} partitions); keeps rows if {@code keep}.
   */
  ResultWatcher(String bootstrap, String topic, int partitionCount, boolean keep) {
    this.consumer = new KafkaConsumer<>(OutputVerifier.readerProperties(bootstrap, true));
    this.partitions = new ArrayList<>();
    for (int partition = 0; partition < partitionCount; partition++) {
      partitions.add(new TopicPartition(topic, partition));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    partitions.forEach(partition -> positions.put(partition, consumer.position(partition)));
    this.rows = keep ? new ArrayList<>() : null;
    this.thread = new Thread(this::pollLoop, "nexmark bench watcher " + topic);
    thread.setDaemon(true);
    thread.start();
  }

  private void pollLoop() {
    try {
      while (running.get()) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
        if (!records.isEmpty()) {
          long now = System.nanoTime();
          if (rows != null) {
            synchronized (rows) {
              for (ConsumerRecord<byte[], byte[]> record : records) {
                rows.add(new String(record.value(), StandardCharsets.UTF_8));
              }
            }
          }
          count += records.count();
          lastArrivalNanos = now;
        }
        // After the poll: a position past a transaction's markers counts as read to there.
        partitions.forEach(partition -> positions.put(partition, consumer.position(partition)));
      }
    } catch (RuntimeException e) {
      if (running.get()) {
        failure = e;
      }
    }
  }

  /**
   * Waits until this watcher has read up to what a {@code read_committed} reader sees now (the
   * writer has ended: nothing more will be committed); false after {@code timeout}.
   */
  boolean awaitCommittedEnd(String bootstrap, Duration timeout) throws InterruptedException {
    Map<TopicPartition, Long> ends;
    try (KafkaConsumer<byte[], byte[]> probe =
        new KafkaConsumer<>(OutputVerifier.readerProperties(bootstrap, true))) {
      ends = probe.endOffsets(partitions, Duration.ofSeconds(30));
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ends.entrySet().stream().anyMatch(end -> positions.get(end.getKey()) < end.getValue())) {
      throwIfFailed();
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  long count() {
    throwIfFailed();
    return count;
  }

  /** When the last row became visible; 0 when none did. */
  long lastArrivalNanos() {
    return lastArrivalNanos;
  }

  /** The rows read so far, as JSON text; only when they were kept. */
  List<String> rows() {
    synchronized (rows) {
      return List.copyOf(rows);
    }
  }

  private void throwIfFailed() {
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    consumer.wakeup();
    thread.join(5000);
    if (!thread.isAlive()) {
      // A consumer is used by one thread at a time: this one only after the reading one ended.
      consumer.close(Duration.ofSeconds(1));
    }
  }
}
