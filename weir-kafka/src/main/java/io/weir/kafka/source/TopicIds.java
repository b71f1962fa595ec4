package io.weir.kafka.source;

import io.weir.kafka.ClientDefaults;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Asks the brokers for the ids of topics: a topic deleted and created again keeps its name but gets
 * a new id. The consumer does not tell topic ids, the admin client does. Used on the source thread.
 */
final class TopicIds {
  private TopicIds() {}

  /**
   * The id of each of {@code topics} that exists, as text.
   *
   * @throws TimeoutException when the brokers did not answer within {@code timeout}
   */
  static Map<String, String> describe(
      KafkaSourceConfig<?> config, Collection<String> topics, Duration timeout) {
    Map<String, String> ids = new HashMap<>();
    if (topics.isEmpty()) {
      return ids;
    }
    Map<String, Object> settings = ClientDefaults.applyTo(config.adminConfig());
    try (Admin admin = Admin.create(settings)) {
      DescribeTopicsOptions options =
          new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis());
      Map<String, KafkaFuture<TopicDescription>> described =
          admin.describeTopics(topics, options).topicNameValues();
      for (Map.Entry<String, KafkaFuture<TopicDescription>> topic : described.entrySet()) {
        describedId(topic.getValue(), timeout).ifPresent(id -> ids.put(topic.getKey(), id));
      }
    }
    return ids;
  }

  /** Empty when the topic is gone (deleted since it was listed). */
  private static Optional<String> describedId(
      KafkaFuture<TopicDescription> description, Duration timeout) {
    try {
      return Optional.of(
          description.get(timeout.toMillis(), TimeUnit.MILLISECONDS).topicId().toString());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      if (e.getCause() instanceof TimeoutException unanswered) {
        throw unanswered;
      }
      throw new IllegalStateException("Cannot describe a topic: " + e.getCause(), e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new TimeoutException("No topic description within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while describing topics", e);
    }
  }
}
