package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.runtime.failpoint.Failpoints;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The source commits a checkpoint's offsets to its group when the checkpoint completes. */
class OffsetCommitterTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  static final TopicPartition PARTITION = new TopicPartition("offsets", 0);

  @Test
  void when_checkpointTakenThenCompleted_then_offsetsAreCommittedOnlyOnCompletion()
      throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), PARTITION.topic(), 1);
    try (OffsetCommitter committer =
        new OffsetCommitter(
            kafka.bootstrapServers(), "committer-group", Map.of(), Failpoints.none())) {
      // when: checkpoints 1 and 2 are taken
      committer.checkpointTaken(1, Map.of(PARTITION, 10L));
      committer.checkpointTaken(2, Map.of(PARTITION, 20L));

      // then: nothing before a completion, and a completion commits its own checkpoint's offsets
      assertThat(groupOffsets("committer-group")).isEmpty();
      committer.checkpointComplete(1);
      assertThat(groupOffsets("committer-group")).containsEntry(PARTITION, 10L);
      committer.checkpointAborted(2);
      committer.checkpointComplete(2);
      assertThat(groupOffsets("committer-group")).containsEntry(PARTITION, 10L);
    }
  }

  private static Map<TopicPartition, Long> groupOffsets(String group) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get(30, TimeUnit.SECONDS);
      Map<TopicPartition, Long> result = new java.util.HashMap<>();
      offsets.forEach((partition, offset) -> result.put(partition, offset.offset()));
      return result;
    }
  }
}
