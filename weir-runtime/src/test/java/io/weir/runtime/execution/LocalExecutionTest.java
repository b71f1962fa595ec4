package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LocalExecutionTest {

  @Test
  void when_boundedKeyedJobRuns_then_everyRecordReachesTheSinkOnce() throws Exception {
    // given
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.fromGenerator(10_000, i -> i)
        .map(i -> i * 2)
        .keyBy(i -> i % 7)
        .map(i -> i + 1)
        .addSink(new CollectSink<>("keyed"));
    // when
    JobResult result = env.execute("keyed");
    // then
    List<Long> out = CollectSink.results("keyed");
    assertThat(out).hasSize(10_000);
    assertThat(out)
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, 10_000).map(i -> i * 2 + 1).boxed().toList());
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void when_keyedReduceRuns_then_finalValuesAreTheSumsPerKey() throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(3);
    env.fromGenerator(3_000, i -> i)
        .keyBy(i -> i % 5)
        .reduce(Long::sum)
        .addSink(new CollectSink<>("reduce"));
    env.execute("reduce");
    List<Long> out = CollectSink.results("reduce");
    assertThat(out).hasSize(3_000);
    Map<Long, Long> expected =
        LongStream.range(0, 3_000)
            .boxed()
            .collect(Collectors.groupingBy(i -> i % 5, Collectors.summingLong(i -> i)));
    for (Map.Entry<Long, Long> e : expected.entrySet()) {
      assertThat(out).contains(e.getValue());
    }
  }

  @Test
  void when_mapThrows_then_jobFailsNamingTheOperator() {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.fromElements(1, 2, 3)
        .map(
            i -> {
              if (i == 2) {
                throw new IllegalStateException("boom");
              }
              return i;
            })
        .name("Exploding Map")
        .addSink(new CollectSink<>("fail"));
    assertThatThrownBy(() -> env.execute("fail"))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("Exploding Map")
        .hasMessageContaining("boom");
  }

  @Test
  void when_checkpointingEnabled_then_periodicCheckpointsComplete() throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.addSource(new io.weir.api.source.GeneratorSource<>(20_000, i -> i, 20_000))
        .keyBy(i -> i % 3)
        .map(i -> i)
        .addSink(new CollectSink<>("periodic"));
    JobResult result = env.execute("periodic");
    assertThat(CollectSink.<Long>results("periodic")).hasSize(20_000);
    assertThat(result.completedCheckpoints()).isGreaterThan(5);
  }
}
