package io.weir.runtime.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.execution.TaskViews;
import io.weir.runtime.monitor.TaskView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How plans and the dashboard's data show a two-input task: both inputs, each by its number. */
class TwoInputPlanTest {
  private final StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();

  private JobGraph enrichmentJob() {
    env.setParallelism(2);
    DataStream<Long> orders =
        env.addSource(new GeneratorSource<>(10, i -> i)).name("Orders").setParallelism(3);
    DataStream<String> rates = env.addSource(new GeneratorSource<>(10, i -> "r" + i)).name("Rates");
    DataStream<String> oddRates =
        env.addSource(new GeneratorSource<>(10, i -> "o" + i)).name("Odd");
    orders
        .connect(rates.union(oddRates))
        .keyBy(order -> order % 5, rate -> (long) rate.length())
        .process(new Pass())
        .name("Enrich")
        .addSink(new DiscardingSink<>())
        .name("Out");
    return JobGraphBuilder.build(env.plan("enrichment"));
  }

  @Test
  void when_streamsConnected_then_thePlanNamesEachInputOfTheTwoInputTask() {
    // when
    JobGraph graph = enrichmentJob();

    // then: the operator after the join chains; the join's task lists its three edges
    assertThat(graph.describe())
        .isEqualTo(
            String.join(
                "\n",
                "Source: Orders  (parallelism 3)",
                "Source: Rates  (parallelism 2)",
                "Source: Odd  (parallelism 2)",
                "Enrich -> Sink: Out  (parallelism 2)",
                "    input 1 <- Source: Orders  (hash)",
                "    input 2 <- Source: Rates  (hash)",
                "    input 2 <- Source: Odd  (hash)",
                ""));
  }

  @Test
  void when_dashboardDataIsBuilt_then_theTwoInputTaskNamesBothInputs() {
    // given
    JobGraph graph = enrichmentJob();

    // when
    List<TaskView> tasks = TaskViews.ofFigures(graph, List.of());

    // then
    TaskView join = tasks.get(3);
    assertThat(join.name()).isEqualTo("Enrich -> Sink: Out");
    assertThat(join.inputs())
        .extracting(TaskView.InputView::input, TaskView.InputView::fromTaskName)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, "Source: Orders"),
            org.assertj.core.groups.Tuple.tuple(2, "Source: Rates"),
            org.assertj.core.groups.Tuple.tuple(2, "Source: Odd"));
    assertThat(tasks.get(0).inputs()).isEmpty();
  }

  @Test
  void when_onlyOneConnectedStreamIsKeyed_then_theOperatorIsRefusedNamingIt() {
    // given
    DataStream<Long> numbers = env.addSource(new GeneratorSource<>(10, i -> i));
    DataStream<String> texts = env.addSource(new GeneratorSource<>(10, i -> "t" + i));

    // when, then
    assertThatThrownBy(() -> numbers.keyBy(i -> i).connect(texts).map(new Describe()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Connected streams must both be keyed or neither: the first is keyed;"
                + " call keyBy(key1, key2) on the connected streams");
  }

  /** Names each record's input. */
  static final class Describe implements CoMapFunction<Long, String, String> {
    @Override
    public String map1(Long value) {
      return "number " + value;
    }

    @Override
    public String map2(String value) {
      return "text " + value;
    }
  }

  /** Forwards the first input's records. */
  static final class Pass extends KeyedCoProcessFunction<Long, Long, String, Long> {
    @Override
    public void processElement1(
        Long value, KeyedProcessFunction.Context<Long> context, Collector<Long> out) {
      out.collect(value);
    }

    @Override
    public void processElement2(
        String value, KeyedProcessFunction.Context<Long> context, Collector<Long> out) {}
  }
}
