package io.weir.lab;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;

/** Topic and consumer group chores of the demo and the lab, through the admin API. */
public final class Topics {
  private Topics() {}

  /**
   * Creates the topics, replicated as the cluster's {@code default.replication.factor} says (once
   * on a single broker, three times on a cluster), and returns once every partition is served by
   * its leader. A broker lists a new partition in its metadata a moment before its replica manager
   * hosts it; an idempotent producer writing in that moment can get its first request refused
   * (NOT_LEADER_OR_FOLLOWER) while a later one to the same partition is appended, and then retries
   * the first forever with OUT_OF_ORDER_SEQUENCE_NUMBER (KAFKA-15591). Listing the partitions'
   * offsets goes to the leader and succeeds only once it hosts them.
   */
  public static void create(String bootstrap, int partitions, String... names) throws Exception {
    create(bootstrap, partitions, Map.of(), names);
  }

  /** As {@link #create(String, int, String...)}, with {@code configs} for each topic. */
  public static void create(
      String bootstrap, int partitions, Map<String, String> configs, String... names)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
      for (String name : names) {
        topics.add(new NewTopic(name, Optional.of(partitions), Optional.empty()).configs(configs));
        for (int partition = 0; partition < partitions; partition++) {
          ends.put(new TopicPartition(name, partition), OffsetSpec.latest());
        }
      }
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
      awaitLeaders(admin, ends);
    }
  }

  /**
   * Grows {@code topic} to {@code partitions} partitions, as an operator adds partitions to a topic
   * that jobs read, and returns once every partition is served by its leader.
   */
  public static void grow(String bootstrap, String topic, int partitions) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions)))
          .all()
          .get(30, TimeUnit.SECONDS);
      Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
      for (int partition = 0; partition < partitions; partition++) {
        ends.put(new TopicPartition(topic, partition), OffsetSpec.latest());
      }
      awaitLeaders(admin, ends);
    }
  }

  /** Waits until every partition's leader answers, at most 30 s. */
  private static void awaitLeaders(Admin admin, Map<TopicPartition, OffsetSpec> ends)
      throws Exception {
    Set<String> names = new HashSet<>();
    ends.keySet().forEach(partition -> names.add(partition.topic()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!servedByLeaders(admin, names, ends)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("The topics " + names + " have no leader after 30 s");
      }
      Thread.sleep(50);
    }
  }

  /**
   * Whether the admin client knows every partition's leader and each leader answers for its
   * partitions. Described first: right after the creation the client may not know the topics yet,
   * and listing offsets of a topic it does not know logs an error instead of retrying.
   */
  private static boolean servedByLeaders(
      Admin admin, Set<String> names, Map<TopicPartition, OffsetSpec> ends) throws Exception {
    try {
      for (TopicDescription description :
          admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
        for (TopicPartitionInfo partition : description.partitions()) {
          if (partition.leader() == null || partition.leader().isEmpty()) {
            return false;
          }
        }
      }
      admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RetriableException) {
        return false; // unknown topic, no leader yet, not hosted yet
      }
      throw e;
    }
  }

  /** The end offsets of {@code topic}, summed over its partitions: how many records it holds. */
  public static long endOffsets(String bootstrap, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      return endOffsets(admin, topic);
    }
  }

  /** As {@link #endOffsets(String, String)}, through an admin client the caller keeps open. */
  public static long endOffsets(Admin admin, String topic) throws Exception {
    return latestOffsets(admin, topic).values().stream()
        .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset)
        .sum();
  }

  /** The seed's monitor 3: the offsets the group committed, summed over partitions. */
  public static long committedOffsets(String bootstrap, String group)
      throws InterruptedException, ExecutionException {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      return committedOffsets(admin, group);
    }
  }

  /**
   * As {@link #committedOffsets(String, String)}, through an admin client the caller keeps open.
   */
  public static long committedOffsets(Admin admin, String group)
      throws InterruptedException, ExecutionException {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.values().stream()
        .filter(o -> o != null)
        .mapToLong(OffsetAndMetadata::offset)
        .sum();
  }

  /**
   * Deletes all but the last {@code keep} records of each partition of {@code topic}, as retention
   * would; returns each partition's earliest available offset afterwards.
   */
  public static Map<Integer, Long> deleteAllButLast(String bootstrap, String topic, long keep)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, RecordsToDelete> deletions = new HashMap<>();
      Map<Integer, Long> earliest = new TreeMap<>();
      latestOffsets(admin, topic)
          .forEach(
              (partition, end) -> {
                long before = Math.max(0, end.offset() - keep);
                deletions.put(partition, RecordsToDelete.beforeOffset(before));
                earliest.put(partition.partition(), before);
              });
      admin.deleteRecords(deletions).all().get(30, TimeUnit.SECONDS);
      return earliest;
    }
  }

  /** The end offset of every partition of {@code topic}. */
  private static Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> latestOffsets(
      Admin admin, String topic) throws Exception {
    int partitions =
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(topic)
            .partitions()
            .size();
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int partition = 0; partition < partitions; partition++) {
      latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
    }
    return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
  }
}
