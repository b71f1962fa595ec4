package io.weir.nexmark.kafka;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the topic events are written to. Events carry their event time as the record timestamp,
 * and the generator's default event time lies in the past, so a topic that deleted records by age
 * (the broker's default is a week) would soon lose them: the topic keeps records regardless of age.
 */
public final class EventTopics {
  private final String bootstrapServers;

  public EventTopics(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
  }

  /** Creates {@code topic} with {@code partitions} partitions; returns false if it existed. */
  public boolean createIfMissing(String topic, int partitions) {
    try (Admin admin =
        Admin.create(
            Map.of("bootstrap.servers", bootstrapServers, "default.api.timeout.ms", 30_000))) {
      NewTopic newTopic =
          new NewTopic(topic, partitions, (short) 1)
              .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1"));
      admin.createTopics(List.of(newTopic)).all().get(30, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TopicExistsException) {
        return false;
      }
      throw new IllegalStateException(
          "Cannot create topic '" + topic + "' at " + bootstrapServers + ": " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "No Kafka broker answered at "
              + bootstrapServers
              + " while creating topic '"
              + topic
              + "'",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating topic '" + topic + "'", e);
    }
  }
}
