package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.BroadcastStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.MapStateDescriptor;
import io.weir.runtime.graph.JobGraphBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A keyed stream connected with a broadcast stream, run locally: every subtask of the two-input
 * task receives every broadcast element, and each keyed record reaches exactly one subtask.
 */
@Timeout(60)
class BroadcastJobTest {
  private static final MapStateDescriptor<String, String> RULES = new MapStateDescriptor<>("rules");

  @Test
  void when_streamIsBroadcast_then_everySubtaskGetsEveryElementAndKeyedRecordsGoOnce()
      throws Exception {
    // given
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(3);
    env.enableCheckpointing(Duration.ofMillis(50));
    BroadcastStream<String> rules =
        env.addSource(new GeneratorSource<>(5, i -> "rule-" + i))
            .setParallelism(1)
            .broadcast(RULES);
    env.addSource(new GeneratorSource<>(1_000, i -> i))
        .setParallelism(2)
        .keyBy(i -> i % 7)
        .connect(rules)
        .process(new Tag())
        .addSink(new CollectSink<>("broadcast-job"));

    // when
    String plan = JobGraphBuilder.build(env.plan("broadcast-job")).describe();
    env.execute("broadcast-job");

    // then
    assertThat(plan).contains("input 2 <- Source  (broadcast)");
    List<String> expected = new ArrayList<>();
    for (int subtask = 0; subtask < 3; subtask++) {
      for (int rule = 0; rule < 5; rule++) {
        expected.add("subtask " + subtask + " got rule-" + rule);
      }
    }
    for (long record = 0; record < 1_000; record++) {
      expected.add("record " + record);
    }
    assertThat(CollectSink.<String>results("broadcast-job"))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** Reports each broadcast element per subtask and passes keyed records on. */
  static final class Tag extends KeyedBroadcastProcessFunction<Long, Long, String, String> {
    @Override
    public void processElement(Long value, ReadOnlyContext<Long> context, Collector<String> out) {
      out.collect("record " + value);
    }

    @Override
    public void processBroadcastElement(String value, Context context, Collector<String> out) {
      context.getBroadcastState(RULES).put(value, value);
      out.collect("subtask " + getRuntimeContext().subtaskIndex() + " got " + value);
    }
  }
}
