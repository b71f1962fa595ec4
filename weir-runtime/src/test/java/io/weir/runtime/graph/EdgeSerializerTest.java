package io.weir.runtime.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import io.weir.api.types.TypeSerializer;
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

  record Reading(long id, String sensor) {}

  @Test
  void when_theStreamDeclaredItsRecordClass_then_theEdgeCarriesItsDefaultSerializer() {
    source()
        .map(i -> new Reading(i, "s"))
        .returns(Reading.class)
        .keyBy(reading -> reading.id() % 3)
        .map(Reading::id)
        .addSink(new DiscardingSink<>());

    StateSerializer<?> serializer = edgeSerializer();

    assertThat(serializer).isInstanceOf(TypeSerializer.class);
    assertThat(((TypeSerializer<?>) serializer).type()).isEqualTo(Reading.class);
  }

  /** Neither a record nor a POJO. */
  static final class Opaque {
    final long id;

    Opaque(long id) {
      this.id = id;
    }
  }

  @Test
  void when_aDeclaredRecordClassHasNoSerializer_then_theBuildFailsNamingTypeAndOperator() {
    source()
        .map(Opaque::new)
        .name("Wrap")
        .returns(Opaque.class)
        .rebalance()
        .addSink(new DiscardingSink<>());

    assertThatThrownBy(() -> JobGraphBuilder.build(env.plan("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "The records of operator 'Wrap' cannot be serialized: type "
                + Opaque.class.getName()
                + " has no serializer:");
  }

  @Test
  void when_theJobAllowsJavaSerializationForTheClass_then_theBuildUsesItAsTheFallback() {
    env.config().allowJavaSerialization(Opaque.class);
    source().map(Opaque::new).returns(Opaque.class).rebalance().addSink(new DiscardingSink<>());

    assertThat(edgeSerializer()).isInstanceOf(TypeSerializer.class);
  }

  @Test
  void when_noSerializerIsDeclared_then_theEdgeLeavesItToTheExchange() {
    source().keyBy(i -> i % 3).map(i -> i + 1).addSink(new DiscardingSink<>());

    assertThat(edgeSerializer()).isNull();
  }
}
