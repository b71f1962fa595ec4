package io.weir.lab.nemesis;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Asks the cluster which broker matters to the job right now: the transaction coordinator of one of
 * the sink's transactional ids, or the leader of one of the output topic's partitions. Either may
 * be unknown while the cluster itself is disturbed: the lookups then return empty.
 */
final class ClusterLookup implements AutoCloseable {
  private static final long TIMEOUT_SECONDS = 10;

  private final Admin admin;

  ClusterLookup(String bootstrap) {
    this.admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
  }

  /** The node id of the coordinator of a transactional id starting with {@code prefix}. */
  Optional<Integer> transactionCoordinator(String prefix, Random random)
      throws InterruptedException {
    try {
      List<String> ids =
          admin.listTransactions().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
              .map(TransactionListing::transactionalId)
              .filter(id -> id.startsWith(prefix))
              .sorted()
              .toList();
      if (ids.isEmpty()) {
        return Optional.empty();
      }
      String id = ids.get(random.nextInt(ids.size()));
      return Optional.of(
          admin
              .describeTransactions(List.of(id))
              .description(id)
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .coordinatorId());
    } catch (ExecutionException | TimeoutException e) {
      return Optional.empty();
    }
  }

  /** The node id of the leader of one of {@code topic}'s partitions. */
  Optional<Integer> partitionLeader(String topic, Random random) throws InterruptedException {
    try {
      List<TopicPartitionInfo> partitions =
          admin
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .get(topic)
              .partitions();
      Node leader = partitions.get(random.nextInt(partitions.size())).leader();
      return leader == null ? Optional.empty() : Optional.of(leader.id());
    } catch (ExecutionException | TimeoutException e) {
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    admin.close();
  }
}
