package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.CoFlatMapFunction;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Two streams, possibly of different types, that the next operator reads together: one two-input
 * task per subtask, which aligns checkpoint barriers over the channels of both inputs and whose
 * event time is the minimum of both inputs' watermarks. Made by {@link DataStream#connect}.
 *
 * @param <IN1> the records of the first input
 * @param <IN2> the records of the second input
 */
@PublicEvolving
public final class ConnectedStreams<IN1, IN2> {
  private final StreamEnvironment env;
  private final DataStream<IN1> first;
  private final DataStream<IN2> second;

  ConnectedStreams(StreamEnvironment env, DataStream<IN1> first, DataStream<IN2> second) {
    this.env = env;
    this.first = first;
    this.second = second;
  }

  public DataStream<IN1> firstInput() {
    return first;
  }

  public DataStream<IN2> secondInput() {
    return second;
  }

  /**
   * Partitions both inputs by key, so that records of either input with equal keys reach the same
   * subtask, which gets keyed state and timers shared by both.
   */
  public <K> ConnectedStreams<IN1, IN2> keyBy(KeySelector<IN1, K> key1, KeySelector<IN2, K> key2) {
    return new ConnectedStreams<>(env, first.keyBy(key1), second.keyBy(key2));
  }

  /** One output record per record of either input, with its timestamp. */
  public <R> DataStream<R> map(CoMapFunction<IN1, IN2, R> function) {
    return then(new OperatorSpec.CoMap(function, firstInputs(), secondKey()));
  }

  /** Zero or more output records per record of either input, each with its timestamp. */
  public <R> DataStream<R> flatMap(CoFlatMapFunction<IN1, IN2, R> function) {
    return then(new OperatorSpec.CoFlatMap(function, firstInputs(), secondKey()));
  }

  /** Records and side outputs per record of either input; no keyed state or timers. */
  public <R> DataStream<R> process(CoProcessFunction<IN1, IN2, R> function) {
    return then(new OperatorSpec.CoProcess(function, firstInputs(), secondKey()));
  }

  /**
   * Records, side outputs, keyed state and timers shared by both inputs; both inputs must be keyed
   * ({@link #keyBy}, or {@code connect} of two keyed streams).
   */
  public <K, R> DataStream<R> process(KeyedCoProcessFunction<K, IN1, IN2, R> function) {
    if (!isKeyed()) {
      throw new IllegalStateException(
          "A KeyedCoProcessFunction needs both connected streams keyed: call keyBy(key1, key2)");
    }
    return then(new OperatorSpec.KeyedCoProcess(function, firstInputs(), secondKey()));
  }

  boolean isKeyed() {
    return first instanceof KeyedStream && second instanceof KeyedStream;
  }

  private int firstInputs() {
    return first.downstreamInputs().size();
  }

  private KeySelector<?, ?> secondKey() {
    return second instanceof KeyedStream<?, ?> keyed && first instanceof KeyedStream
        ? keyed.keySelector()
        : null;
  }

  private <R> DataStream<R> then(OperatorSpec.TwoInput spec) {
    if ((first instanceof KeyedStream) != (second instanceof KeyedStream)) {
      throw new IllegalStateException(
          "Connected streams must both be keyed or neither: the "
              + (first instanceof KeyedStream ? "first" : "second")
              + " is keyed; call keyBy(key1, key2) on the connected streams");
    }
    List<Input> inputs = new ArrayList<>(first.downstreamInputs());
    inputs.addAll(second.downstreamInputs());
    return new DataStream<>(env, env.add(spec, inputs, -1));
  }
}
