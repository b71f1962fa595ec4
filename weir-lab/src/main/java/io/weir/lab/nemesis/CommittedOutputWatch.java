package io.weir.lab.nemesis;

import io.weir.lab.OutputVerifier;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@code read_committed} reader of the output topic that runs for the whole lab, on a thread of
 * its own, as a consumer downstream of the job would: it notes when committed output arrived (the
 * availability timeline) and the offset of every record it was shown, so that the checker can tell
 * afterwards whether it was shown a record that no committed transaction holds (an aborted read).
 */
final class CommittedOutputWatch implements OutputWatch {
  private static final Duration POLL = Duration.ofMillis(200);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Clock clock;
  private final Thread thread;
  private final List<Arrival> arrivals = new ArrayList<>();
  private final Map<Integer, Set<Long>> offsets = new HashMap<>();
  private volatile boolean stopped;
  private volatile RuntimeException failure;
  private long committed;

  private CommittedOutputWatch(String bootstrap, String topic, Clock clock) {
    Properties properties = OutputVerifier.readerProperties(bootstrap, true);
    this.consumer = new KafkaConsumer<>(properties);
    this.clock = clock;
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic).stream()
            .map(info -> new TopicPartition(topic, info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    this.thread = new Thread(this::watch, "nemesis-watch-" + topic);
    thread.setDaemon(true);
  }

  /** Starts reading {@code topic} from its beginning. */
  static CommittedOutputWatch start(String bootstrap, String topic, Clock clock) {
    CommittedOutputWatch watch = new CommittedOutputWatch(bootstrap, topic, clock);
    watch.thread.start();
    return watch;
  }

  private void watch() {
    try {
      while (!stopped) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        if (records.isEmpty()) {
          continue;
        }
        synchronized (this) {
          for (ConsumerRecord<byte[], byte[]> record : records) {
            offsets
                .computeIfAbsent(record.partition(), partition -> new HashSet<>())
                .add(record.offset());
          }
          committed += records.count();
          arrivals.add(new Arrival(clock.instant(), committed));
        }
      }
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      consumer.close();
    }
  }

  @Override
  public synchronized long committed() {
    return committed;
  }

  @Override
  public synchronized List<Arrival> arrivals() {
    return List.copyOf(arrivals);
  }

  @Override
  public synchronized Map<Integer, Set<Long>> offsets() {
    Map<Integer, Set<Long>> copy = new HashMap<>();
    offsets.forEach((partition, seen) -> copy.put(partition, Set.copyOf(seen)));
    return copy;
  }

  /** Stops reading; rethrows what stopped the reader early. Idempotent. */
  @Override
  public void close() throws InterruptedException {
    stopped = true;
    thread.join();
    RuntimeException failure = this.failure;
    this.failure = null;
    if (failure != null) {
      throw new IllegalStateException("the committed output reader failed: " + failure, failure);
    }
  }
}
