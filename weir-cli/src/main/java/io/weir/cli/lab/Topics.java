package io.weir.cli.lab;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** Topic and consumer group chores of the demo and the lab, through the admin API. */
public final class Topics {
  private Topics() {}

  public static void create(String bootstrap, int partitions, String... names) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      for (String name : names) {
        topics.add(new NewTopic(name, partitions, (short) 1));
      }
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
      awaitLeaders(admin, List.of(names));
    }
  }

  /**
   * Waits until every partition of the new topics has a leader, so that clients that start right
   * away find all of them: a loader started right after the creation once had the records of one
   * partition expire unsent two minutes later.
   */
  private static void awaitLeaders(Admin admin, List<String> names) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Map<String, TopicDescription> descriptions =
          admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
      boolean ready =
          descriptions.values().stream()
              .flatMap(description -> description.partitions().stream())
              .allMatch(partition -> partition.leader() != null && !partition.leader().isEmpty());
      if (ready) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("The topics " + names + " have no leaders after 30 s");
      }
      Thread.sleep(50);
    }
  }

  /** The end offsets of {@code topic}, summed over its partitions: how many records it holds. */
  public static long endOffsets(String bootstrap, String topic) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
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
      return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream()
          .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset)
          .sum();
    }
  }

  /** The seed's monitor 3: the offsets the group committed, summed over partitions. */
  public static long committedOffsets(String bootstrap, String group)
      throws InterruptedException, ExecutionException {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      return offsets.values().stream()
          .filter(o -> o != null)
          .mapToLong(OffsetAndMetadata::offset)
          .sum();
    }
  }
}
