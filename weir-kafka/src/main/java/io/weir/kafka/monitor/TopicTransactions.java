package io.weir.kafka.monitor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the transactions that wrote to a topic are all decided, their markers written: a
 * transaction's commit returns once the coordinator logged the decision, and the brokers write the
 * markers into the partitions after that. Until then a {@code read_committed} reader stops at the
 * last stable offset, short of the transaction. For whoever reads a finished job's output.
 */
public final class TopicTransactions {
  private static final long TIMEOUT_SECONDS = 30;

  private TopicTransactions() {}

  /** Whether every partition's last stable offset equals its end offset. */
  public static boolean allDecided(String bootstrapServers, String topic)
      throws ExecutionException, InterruptedException, TimeoutException {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      Map<TopicPartition, OffsetSpec> partitions = latestOf(admin, topic);
      return endOffsets(admin, partitions, IsolationLevel.READ_UNCOMMITTED)
          .equals(endOffsets(admin, partitions, IsolationLevel.READ_COMMITTED));
    }
  }

  private static Map<TopicPartition, OffsetSpec> latestOf(Admin admin, String topic)
      throws ExecutionException, InterruptedException, TimeoutException {
    int count =
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
            .get(topic)
            .partitions()
            .size();
    Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
    for (int partition = 0; partition < count; partition++) {
      partitions.put(new TopicPartition(topic, partition), OffsetSpec.latest());
    }
    return partitions;
  }

  private static Map<TopicPartition, Long> endOffsets(
      Admin admin, Map<TopicPartition, OffsetSpec> partitions, IsolationLevel isolation)
      throws ExecutionException, InterruptedException, TimeoutException {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    admin
        .listOffsets(partitions, new ListOffsetsOptions(isolation))
        .all()
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .forEach((partition, info) -> offsets.put(partition, info.offset()));
    return offsets;
  }
}
