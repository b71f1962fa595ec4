package io.weir.web;

import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.monitor.KafkaMonitor;
import io.weir.runtime.monitor.KafkaStatus;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Asks the brokers about a job at most once per {@code maxAgeMillis}: the dashboard of every open
 * tab and every scrape read the same answer instead of each asking the brokers. Thread safe.
 */
final class KafkaStatusCache {
  private record Entry(KafkaStatus status, long atMillis) {}

  private final KafkaMonitor kafka;
  private final Clock clock;
  private final long maxAgeMillis;
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  KafkaStatusCache(KafkaMonitor kafka, Clock clock, long maxAgeMillis) {
    this.kafka = kafka;
    this.clock = clock;
    this.maxAgeMillis = maxAgeMillis;
  }

  KafkaStatus statusOf(String jobId, JobGraph graph) {
    Entry entry =
        entries.compute(
            jobId,
            (id, previous) ->
                previous != null && clock.millis() - previous.atMillis() < maxAgeMillis
                    ? previous
                    : new Entry(kafka.status(graph.operators()), clock.millis()));
    return entry.status();
  }
}
