package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A state type without a serializer stops the job in one line that names the operator. */
@Timeout(120)
class UnsupportedStateTypeTest {
  /** A record whose field the default serializer cannot write and the job did not allow. */
  record Worker(String name, Thread thread) {}

  /** Declares a state of {@link Worker} in {@code open}. */
  static final class Remembering extends RichMapFunction<Long, Long> {
    private transient ValueState<Worker> state;

    @Override
    public void open() {
      state =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("worker", TypeSerializer.of(Worker.class)));
    }

    @Override
    public Long map(Long value) {
      state.value();
      return value;
    }
  }

  @Test
  void when_aStateTypeHasNoSerializer_then_theJobFailsInOneLineNamingOperatorTypeAndField()
      throws Exception {
    // given: a keyed operator whose state's record holds a Thread
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.addSource(new GeneratorSource<>(100, i -> i))
        .uid("numbers")
        .keyBy(i -> i % 3)
        .map(new Remembering())
        .uid("remember")
        .addSink(new CollectSink<>("unsupported-state"))
        .uid("collect");

    // when / then: the job fails before any record reaches the sink, in one line
    assertThatThrownBy(() -> env.execute("remember"))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining(
            "Operator 'remember': type "
                + Worker.class.getName()
                + ": field 'thread' of type java.lang.Thread has no serializer: ")
        .hasMessageContaining("; make it a record or a POJO, or allow Java serialization for it")
        .hasMessageNotContaining("\n");
    assertThat(CollectSink.<Long>results("unsupported-state")).isEmpty();
  }
}
