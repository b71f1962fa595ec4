package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.source.ReaderOutput;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The event time a Kafka source subtask reports before and after its enumerator's first assignment.
 * A subtask that said it was idle while it only waited for its partitions let event time downstream
 * follow the other subtasks alone, and windows then dropped its records as late. The readers here
 * hold no partition the consumer polls, so no broker is needed.
 */
class KafkaSourceReaderEventTimeTest {
  // Longer than the reader's watermark interval several times over.
  private static final Duration SEVERAL_INTERVALS = Duration.ofSeconds(1);
  // How long a reader may take to say what it should on a loaded machine.
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private KafkaSourceReader<String> reader;

  @AfterEach
  void closeReader() {
    if (reader != null) {
      reader.close();
    }
  }

  @Test
  void when_noAssignmentArrivedYet_then_theSubtaskIsNeitherIdleNorEmitsAWatermark() {
    // given: a subtask whose splits come from the enumerator, which has not answered yet
    reader = reader(WatermarkStrategy.forMonotonousTimestamps(), Map.of());
    CountingOutput output = new CountingOutput();

    // when / then: several watermark intervals pass
    await()
        .during(SEVERAL_INTERVALS)
        .atMost(SEVERAL_INTERVALS.multipliedBy(3))
        .untilAsserted(
            () -> {
              poll(output);
              assertThat(output.idleMarks).as("idle marks").isZero();
              assertThat(output.watermarks).as("watermarks").isZero();
            });
  }

  @Test
  void when_theFirstAssignmentIsEmpty_then_theSubtaskIsIdle() {
    // given: more subtasks than partitions, so the enumerator has none for this one
    reader = reader(WatermarkStrategy.forMonotonousTimestamps(), Map.of());
    CountingOutput output = new CountingOutput();

    // when
    reader.addSplits(List.of());

    // then: idle without waiting for an idleness timeout (the strategy has none)
    await().atMost(PATIENCE).until(() -> poll(output) && output.idleMarks > 0);
    assertThat(output.watermarks).isZero();
  }

  @Test
  void when_aBoundedSourceIsToldNoMoreSplits_then_theSubtaskIsIdle() {
    // given
    reader = reader(WatermarkStrategy.forMonotonousTimestamps(), Map.of());
    CountingOutput output = new CountingOutput();

    // when
    reader.notifyNoMoreSplits();

    // then
    await().atMost(PATIENCE).until(() -> poll(output) && output.idleMarks > 0);
  }

  @Test
  void when_partitionsWereRestored_then_theyCountAsAssignedAndGoIdleAfterTheTimeout() {
    // given: a partition restored from the checkpoint, no assignment from the enumerator
    Map<TopicPartition, Long> restored = new HashMap<>(Map.of(new TopicPartition("events", 0), 7L));
    reader =
        reader(
            WatermarkStrategy.<String>forMonotonousTimestamps()
                .withIdleness(Duration.ofMillis(300)),
            restored);
    CountingOutput output = new CountingOutput();

    // when / then: the partition reads nothing for longer than the idleness timeout
    await().atMost(PATIENCE).until(() -> poll(output) && output.idleMarks > 0);
  }

  private boolean poll(CountingOutput output) throws Exception {
    reader.pollNext(output);
    return true;
  }

  private static KafkaSourceReader<String> reader(
      WatermarkStrategy<String> strategy, Map<TopicPartition, Long> restored) {
    KafkaSourceConfig<String> config =
        KafkaSource.<String>builder()
            .bootstrapServers("localhost:9")
            .topics("events")
            .commitOffsetsOnCheckpoint(false)
            .deserializer(record -> new String(record.value()))
            .watermarks(strategy.withTimestampAssigner((record, kafkaTimestamp) -> kafkaTimestamp))
            .build()
            .config();
    Subtask subtask = new Subtask();
    KafkaSourceOpening opening =
        new KafkaSourceOpening(
            subtask.subtaskIndex(),
            subtask.parallelism(),
            new PartitionReader(config, subtask),
            new HashMap<>(restored),
            new HashMap<>(),
            RestoredPositions.none(),
            new OutOfRangeOffsets(config.outOfRangePolicy()),
            null,
            null,
            true);
    return new KafkaSourceReader<>(config, opening);
  }

  /** Counts what the reader tells event time downstream. */
  private static final class CountingOutput implements ReaderOutput<String> {
    int watermarks;
    int idleMarks;

    @Override
    public void collect(String record) {}

    @Override
    public void collect(String record, long timestamp) {}

    @Override
    public void emitWatermark(long watermark) {
      watermarks++;
    }

    @Override
    public void markIdle() {
      idleMarks++;
    }
  }

  /** Subtask 1 of 2; the reader asks no keyed state of it. */
  private static final class Subtask implements RuntimeContext {
    @Override
    public String jobName() {
      return "event-time";
    }

    @Override
    public String operatorName() {
      return "source";
    }

    @Override
    public int subtaskIndex() {
      return 1;
    }

    @Override
    public int parallelism() {
      return 2;
    }

    @Override
    public int maxParallelism() {
      return 128;
    }

    @Override
    public int attempt() {
      return 0;
    }

    @Override
    public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
      throw new UnsupportedOperationException("no keyed state in a source");
    }

    @Override
    public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
      throw new UnsupportedOperationException("no keyed state in a source");
    }

    @Override
    public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
      throw new UnsupportedOperationException("no keyed state in a source");
    }

    @Override
    public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
      throw new UnsupportedOperationException("no keyed state in a source");
    }
  }
}
