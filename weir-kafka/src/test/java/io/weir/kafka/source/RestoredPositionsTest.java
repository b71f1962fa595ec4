package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.state.StateSerializer;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Where a restored Kafka source's partitions start, as its union states say: partitions added after
 * the checkpoint, a checkpoint written before the source kept its discovered topics, and topics
 * re-created since.
 */
class RestoredPositionsTest {
  private static final TopicPartition KNOWN = new TopicPartition("foo", 0);
  private static final TopicPartition ADDED = new TopicPartition("foo", 2);
  private static final TopicPartition OTHER_TOPIC = new TopicPartition("baz", 0);

  @Test
  void when_checkpointRecordedItsDiscovery_then_everyPartitionWithoutOffsetWasAddedSince() {
    // given: a checkpoint of two subtasks, each with its partition's offset and the topic ids
    RestoredPositions restored =
        RestoredPositions.of(
            List.of(new PartitionOffset("foo", 0, 10), new PartitionOffset("foo", 1, 20)),
            List.of(new DiscoveredTopics(Map.of("foo", "id-1")), new DiscoveredTopics(Map.of())));

    // then
    assertThat(restored.offset(KNOWN)).isEqualTo(10);
    assertThat(restored.addedSince(KNOWN)).isFalse();
    assertThat(restored.addedSince(ADDED)).isTrue();
    assertThat(restored.addedSince(OTHER_TOPIC)).isTrue();
    assertThat(restored.topicIds()).containsExactly(Map.entry("foo", "id-1"));
  }

  @Test
  void when_checkpointPredatesDiscoveredTopics_then_onlyPartitionsOfItsTopicsCountAsAdded() {
    // given: a checkpoint written before the source kept its discovered topics, read back from
    // the bytes such a checkpoint holds
    RestoredPositions restored =
        RestoredPositions.of(List.of(roundTrip(new PartitionOffset("foo", 0, 10))), List.of());

    // then: its offsets hold, a partition of its topic without one was added since, a topic it
    // did not know starts as configured, and there is no topic id to check
    assertThat(restored.offset(KNOWN)).isEqualTo(10);
    assertThat(restored.addedSince(ADDED)).isTrue();
    assertThat(restored.addedSince(OTHER_TOPIC)).isFalse();
    assertThat(
            restored.checkTopicIds(
                Map.of("foo", "id-2"), RecreatedTopicPolicy.FAIL, OptionalLong.of(3)))
        .isSameAs(restored);
  }

  @Test
  void when_freshStart_then_nothingIsAddedSince() {
    assertThat(RestoredPositions.none().addedSince(KNOWN)).isFalse();
  }

  @Test
  void when_topicIdChanged_then_failsNamingTopicIdsAndOptionOrForgetsItsOffsets() {
    // given
    RestoredPositions restored =
        RestoredPositions.of(
            List.of(new PartitionOffset("foo", 0, 10), new PartitionOffset("baz", 0, 5)),
            List.of(new DiscoveredTopics(Map.of("foo", "id-1", "baz", "id-9"))));
    Map<String, String> now = Map.of("foo", "id-2", "baz", "id-9");

    // then: by default, one line naming the topic, both ids, the checkpoint and the way out
    assertThatThrownBy(
            () -> restored.checkTopicIds(now, RecreatedTopicPolicy.FAIL, OptionalLong.of(7)))
        .isInstanceOf(SuppressRestartsException.class)
        .hasMessage(
            "Topic 'foo' was deleted and created again since checkpoint 7 (topic id id-1 then,"
                + " id-2 now), so its offsets point into a log that is gone; to read the new"
                + " topic from its earliest offset, use the re-created topic policy EARLIEST"
                + " (--on-recreated-topic earliest)");

    // and: under EARLIEST the re-created topic's partitions start over, the others keep theirs
    RestoredPositions accepted =
        restored.checkTopicIds(now, RecreatedTopicPolicy.EARLIEST, OptionalLong.of(7));
    assertThat(accepted.offset(KNOWN)).isNull();
    assertThat(accepted.addedSince(KNOWN)).isTrue();
    assertThat(accepted.offset(OTHER_TOPIC)).isEqualTo(5);
    assertThat(accepted.topicIds()).containsExactly(Map.entry("baz", "id-9"));
  }

  private static PartitionOffset roundTrip(PartitionOffset offset) {
    StateSerializer<Object> java = StateSerializer.java();
    return (PartitionOffset) java.deserialize(java.serialize(offset));
  }
}
