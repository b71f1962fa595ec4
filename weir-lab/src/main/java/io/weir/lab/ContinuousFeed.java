package io.weir.lab;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Feeds seed records with consecutive ids into the input topic at a steady rate, on a thread of its
 * own, until stopped: the input of a job that is being crashed. Records go out in chunks of a tenth
 * of a second (larger after a chunk that took longer), each flushed before the next; {@link #pause}
 * returns once no chunk is in flight, so the broker can be killed without a half-sent chunk. A
 * record the broker refuses stops the feed, and {@link #stop} names it: it was counted as fed, and
 * would otherwise show as lost by the job.
 */
public final class ContinuousFeed implements AutoCloseable {
  private static final long CHUNK_MILLIS = 100;
  private static final long MAX_CATCH_UP_CHUNKS = 5;

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private volatile long recordsPerChunk;
  private final ReentrantLock sending = new ReentrantLock();
  private final Thread thread;
  private volatile boolean paused;
  private volatile boolean stopped;
  private volatile long nextId;
  private volatile RuntimeException failure;
  // The first record the broker refused: counted as fed, it would otherwise look lost by the job.
  private final AtomicReference<String> refused = new AtomicReference<>();

  private ContinuousFeed(String bootstrap, String topic, long ratePerSecond, long firstId) {
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                5));
    this.topic = topic;
    this.recordsPerChunk = recordsPerChunk(ratePerSecond);
    this.nextId = firstId;
    this.thread = new Thread(this::feed, "lab-feed-" + topic);
    thread.setDaemon(true);
  }

  /** Starts feeding records {@code firstId}, {@code firstId + 1}, ... at about the given rate. */
  public static ContinuousFeed start(
      String bootstrap, String topic, long ratePerSecond, long firstId) {
    ContinuousFeed feed = new ContinuousFeed(bootstrap, topic, ratePerSecond, firstId);
    feed.thread.start();
    return feed;
  }

  private void feed() {
    try {
      long previousStart = System.currentTimeMillis() - CHUNK_MILLIS;
      while (!stopped) {
        long started = System.currentTimeMillis();
        // A chunk that took longer than its share of a second (a busy machine, a slow broker)
        // makes the next one larger, up to a few chunks, so that the rate holds.
        long chunk =
            recordsPerChunk
                * Math.min(started - previousStart, CHUNK_MILLIS * MAX_CATCH_UP_CHUNKS)
                / CHUNK_MILLIS;
        previousStart = started;
        sending.lock();
        try {
          if (!paused && !stopped) {
            sendChunk(Math.max(1, chunk));
          }
        } finally {
          sending.unlock();
        }
        long rest = CHUNK_MILLIS - (System.currentTimeMillis() - started);
        if (rest > 0) {
          Thread.sleep(rest);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private void sendChunk(long records) {
    long id = nextId;
    for (long end = id + records; id < end; id++) {
      String record = SeedRecords.generate(id);
      long sent = id;
      producer.send(
          new ProducerRecord<>(
              topic,
              SeedRecords.word(record).getBytes(StandardCharsets.UTF_8),
              record.getBytes(StandardCharsets.UTF_8)),
          (metadata, error) -> {
            if (error != null) {
              refused.compareAndSet(null, "record " + sent + " was refused: " + error.getMessage());
            }
          });
    }
    producer.flush();
    nextId = id;
    if (refused.get() != null) {
      throw new IllegalStateException(refused.get());
    }
  }

  private static long recordsPerChunk(long ratePerSecond) {
    return Math.max(1, ratePerSecond * CHUNK_MILLIS / 1000);
  }

  /** Feeds at about {@code ratePerSecond} from the next chunk on. */
  public void changeRate(long ratePerSecond) {
    recordsPerChunk = recordsPerChunk(ratePerSecond);
  }

  /** Stops sending after the chunk in flight, which is flushed when this returns. */
  public void pause() {
    paused = true;
    sending.lock();
    sending.unlock();
  }

  public void resume() {
    paused = false;
  }

  /** The id the next record would get: the number of records fed when the first id was 0. */
  public long nextId() {
    return nextId;
  }

  /** Stops feeding, flushes, and returns the next id; rethrows a failure of the feeding thread. */
  public long stop() throws InterruptedException {
    stopped = true;
    thread.join();
    producer.close();
    if (failure != null) {
      throw new LabFailure("Feeding topic '" + topic + "' failed: " + failure.getMessage());
    }
    return nextId;
  }

  @Override
  public void close() throws InterruptedException {
    if (thread.isAlive() || !stopped) {
      stopped = true;
      thread.join();
      producer.close();
    }
  }
}
