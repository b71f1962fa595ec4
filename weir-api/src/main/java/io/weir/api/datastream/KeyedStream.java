package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.windowing.WindowAssigner;
import java.util.List;

/**
 * A stream partitioned by key: the next operator runs with keyed state and timers of each record's
 * key.
 */
@Public
public final class KeyedStream<T, K> extends DataStream<T> {
  private final KeySelector<T, K> keySelector;

  KeyedStream(
      StreamEnvironment env,
      Transformation transformation,
      List<Input> inputs,
      KeySelector<T, K> keySelector) {
    super(env, transformation, inputs);
    this.keySelector = keySelector;
  }

  public KeySelector<T, K> keySelector() {
    return keySelector;
  }

  @Override
  public <R> DataStream<R> map(MapFunction<T, R> function) {
    return then(new OperatorSpec.Map(function));
  }

  public <R> DataStream<R> process(KeyedProcessFunction<K, T, R> function) {
    return then(new OperatorSpec.KeyedProcess(function));
  }

  /** A running reduce per key: emits the new accumulated value for every record. */
  public DataStream<T> reduce(ReduceFunction<T> function) {
    return then(new OperatorSpec.Reduce(function));
  }

  /**
   * Joins this stream with {@code other} by key and time: give the bounds with {@code between},
   * then the function with {@code process}.
   */
  public <T2> IntervalJoin<T, T2, K> intervalJoin(KeyedStream<T2, K> other) {
    return new IntervalJoin<>(this, other);
  }

  /**
   * Connects this stream with a broadcast stream: every subtask of the next operator gets every
   * broadcast element and this stream's records of its keys.
   */
  public <B> BroadcastConnectedStream<T, B, K> connect(BroadcastStream<B> broadcast) {
    return new BroadcastConnectedStream<>(this, broadcast);
  }

  public WindowedStream<T, K> window(WindowAssigner<? super T> assigner) {
    return new WindowedStream<>(this, assigner);
  }

  /** Windows of {@code size} records per key, fired and cleared each time one is full. */
  public CountWindowedStream<T, K> countWindow(long size) {
    return new CountWindowedStream<>(this, size);
  }
}
