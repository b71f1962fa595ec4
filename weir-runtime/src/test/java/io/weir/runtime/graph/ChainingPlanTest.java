package io.weir.runtime.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.graph.Partitioning;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which operators the job graph chains into one task, named as plans print them. */
class ChainingPlanTest {
  private static final String SOURCE = "Source: Example Source";
  private static final String SINK = "Sink: Example Sink";

  private final StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();

  private DataStream<Long> source() {
    return env.addSource(new GeneratorSource<>(10, i -> i)).name("Example Source");
  }

  private static void sink(DataStream<Long> stream) {
    stream.addSink(new DiscardingSink<>()).name("Example Sink");
  }

  private List<String> taskNames(JobGraph graph) {
    return graph.vertices().stream().map(JobVertex::name).toList();
  }

  private List<Integer> parallelisms(JobGraph graph) {
    return graph.vertices().stream().map(JobVertex::parallelism).toList();
  }

  @Test
  void when_sourceMapSink_then_oneTask() {
    sink(source().map(i -> i + 1));
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE + " -> Map -> " + SINK);
    assertThat(graph.edges()).isEmpty();
  }

  @Test
  void when_keyByBeforeMap_then_twoTasksJoinedByAHashEdge() {
    env.setParallelism(2);
    sink(source().keyBy(i -> i % 3).map(i -> i + 1));
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE, "Map -> " + SINK);
    assertThat(parallelisms(graph)).containsExactly(2, 2);
    assertThat(graph.edges())
        .singleElement()
        .satisfies(edge -> assertThat(edge.partitioning()).isInstanceOf(Partitioning.Hash.class));
  }

  @Test
  void when_parallelismChanges_then_theChainBreaksThere() {
    env.setParallelism(2);
    DataStream<Long> mapped = source().map(i -> i + 1).setParallelism(3);
    mapped.addSink(new DiscardingSink<>()).name("Example Sink").setParallelism(3);
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE, "Map -> " + SINK);
    assertThat(parallelisms(graph)).containsExactly(2, 3);
    assertThat(graph.edges().get(0).partitioning()).isInstanceOf(Partitioning.Rebalance.class);
  }

  @Test
  void when_mapDisablesChaining_then_itIsATaskOfItsOwn() {
    sink(source().map(i -> i + 1).disableChaining());
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE, "Map", SINK);
  }

  @Test
  void when_mapStartsNewChain_then_itHeadsTheNextTask() {
    sink(source().filter(i -> i > 0).map(i -> i + 1).startNewChain());
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE + " -> Filter", "Map -> " + SINK);
  }

  @Test
  void when_rebalance_then_theChainBreaks() {
    env.setParallelism(2);
    sink(source().rebalance().map(i -> i + 1));
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE, "Map -> " + SINK);
    assertThat(graph.edges().get(0).partitioning()).isInstanceOf(Partitioning.Rebalance.class);
  }

  @Test
  void when_twoSourcesAreUnioned_then_theConsumerHeadsATaskWithTwoInputs() {
    DataStream<Long> first = source();
    DataStream<Long> other = env.addSource(new GeneratorSource<>(5, i -> i)).name("Other Source");
    sink(first.union(other).map(i -> i + 1));
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE, "Source: Other Source", "Map -> " + SINK);
    JobVertex map = graph.vertices().get(2);
    assertThat(graph.inputsOf(map)).hasSize(2);
  }

  @Test
  void when_chainingIsOffForTheJob_then_everyOperatorIsATask() {
    env.disableOperatorChaining();
    sink(source().map(i -> i + 1));
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(taskNames(graph)).containsExactly(SOURCE, "Map", SINK);
  }
}
