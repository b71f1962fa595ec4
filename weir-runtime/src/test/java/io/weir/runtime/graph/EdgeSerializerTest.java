package io.weir.runtime.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import org.junit.jupiter.api.Test;

/** The serializer a stream declares travels on the edges that carry its records. */
class EdgeSerializerTest {
  private final StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
  private final StateSerializer<Long> longs = StateSerializers.longs();

  private DataStream<Long> source() {
    env.setParallelism(2);
    return env.addSource(new GeneratorSource<>(10, i -> i));
  }

  /** The serializer on the job graph's only edge. */
  private StateSerializer<?> edgeSerializer() {
    JobGraph graph = JobGraphBuilder.build(env.plan("x"));
    assertThat(graph.edges()).hasSize(1);
    return graph.edges().get(0).serializer();
  }

  @Test
  void when_theKeyedStreamDeclaredASerializer_then_theHashEdgeCarriesIt() {
    source()
        .withSerializer(longs)
        .keyBy(i -> i % 3)
        .map(i -> i + 1)
        .addSink(new DiscardingSink<>());

    assertThat(edgeSerializer()).isSameAs(longs);
  }

  @Test
  void when_declaredOnTheKeyedStream_then_itIsTheKeyedRecordsSerializer() {
    source()
        .keyBy(i -> i % 3)
        .withSerializer(longs)
        .map(i -> i + 1)
        .addSink(new DiscardingSink<>());

    assertThat(edgeSerializer()).isSameAs(longs);
  }

  @Test
  void when_noSerializerIsDeclared_then_theEdgeLeavesItToTheExchange() {
    source().keyBy(i -> i % 3).map(i -> i + 1).addSink(new DiscardingSink<>());

    assertThat(edgeSerializer()).isNull();
  }
}
