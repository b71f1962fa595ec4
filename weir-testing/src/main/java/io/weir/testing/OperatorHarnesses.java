package io.weir.testing;

import io.weir.api.datastream.JobConfig;
import io.weir.api.functions.CoFlatMapFunction;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.FilterFunction;
import io.weir.api.functions.FlatMapFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.ProcessFunction;
import io.weir.api.functions.ProcessJoinFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.state.MapStateDescriptor;
import io.weir.runtime.operators.OperatorFactory;
import io.weir.runtime.operators.SinkOperator;
import io.weir.runtime.recovery.SinkRecoveryStep;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where operator harnesses start: one factory per kind of function. Each returns a builder; {@code
 * open()} starts the operator. The function is never called directly: the runtime's operator for
 * its kind runs it, with a serialized copy per subtask.
 */
public final class OperatorHarnesses {
  private OperatorHarnesses() {}

  public static <IN, OUT> OperatorHarnessBuilder<IN, OUT> forMap(MapFunction<IN, OUT> function) {
    return forSpec(new OperatorSpec.Map(function), null);
  }

  public static <IN, OUT> OperatorHarnessBuilder<IN, OUT> forFlatMap(
      FlatMapFunction<IN, OUT> function) {
    return forSpec(new OperatorSpec.FlatMap(function), null);
  }

  public static <IN> OperatorHarnessBuilder<IN, IN> forFilter(FilterFunction<IN> function) {
    return forSpec(new OperatorSpec.Filter(function), null);
  }

  public static <IN, OUT> OperatorHarnessBuilder<IN, OUT> forProcess(
      ProcessFunction<IN, OUT> function) {
    return forSpec(new OperatorSpec.Process(function), null);
  }

  /** A keyed process function after {@code keyBy(key)}: keyed state and timers. */
  public static <K, IN, OUT> OperatorHarnessBuilder<IN, OUT> forKeyedProcess(
      KeySelector<IN, K> key, KeyedProcessFunction<K, IN, OUT> function) {
    return forSpec(new OperatorSpec.KeyedProcess(function), key);
  }

  /** A rolling reduce per key, as {@code keyBy(key).reduce(function)}. */
  public static <IN> OperatorHarnessBuilder<IN, IN> forReduce(
      KeySelector<IN, ?> key, ReduceFunction<IN> function) {
    return forSpec(new OperatorSpec.Reduce(function), key);
  }

  /**
   * Any operator the API describes, e.g. an {@link OperatorSpec.Window}; give the key with {@link
   * OperatorHarnessBuilder#keyBy} when it follows a keyBy.
   */
  public static <IN, OUT> OperatorHarnessBuilder<IN, OUT> forOperator(OperatorSpec spec) {
    return forSpec(spec, null);
  }

  /** A co-map of two inputs that are not keyed, as {@code a.connect(b).map(function)}. */
  public static <IN1, IN2, OUT> TwoInputHarnessBuilder<IN1, IN2, OUT> forCoMap(
      CoMapFunction<IN1, IN2, OUT> function) {
    return new TwoInputHarnessBuilder<>(
        forSpec(new OperatorSpec.CoMap(function, 1, null), null), null);
  }

  /** A co-flat-map of two inputs that are not keyed, as {@code a.connect(b).flatMap(function)}. */
  public static <IN1, IN2, OUT> TwoInputHarnessBuilder<IN1, IN2, OUT> forCoFlatMap(
      CoFlatMapFunction<IN1, IN2, OUT> function) {
    return new TwoInputHarnessBuilder<>(
        forSpec(new OperatorSpec.CoFlatMap(function, 1, null), null), null);
  }

  /** A co-process function of two inputs that are not keyed. */
  public static <IN1, IN2, OUT> TwoInputHarnessBuilder<IN1, IN2, OUT> forCoProcess(
      CoProcessFunction<IN1, IN2, OUT> function) {
    return new TwoInputHarnessBuilder<>(
        forSpec(new OperatorSpec.CoProcess(function, 1, null), null), null);
  }

  /**
   * A keyed co-process function after {@code a.connect(b).keyBy(key1, key2)}: keyed state and
   * timers that both inputs share.
   */
  public static <K, IN1, IN2, OUT> TwoInputHarnessBuilder<IN1, IN2, OUT> forKeyedCoProcess(
      KeySelector<IN1, K> key1,
      KeySelector<IN2, K> key2,
      KeyedCoProcessFunction<K, IN1, IN2, OUT> function) {
    return new TwoInputHarnessBuilder<>(
        forSpec(new OperatorSpec.KeyedCoProcess(function, 1, key2), key1), key2);
  }

  /** An interval join, as {@code a.keyBy(key1).intervalJoin(b.keyBy(key2)).between(...)}. */
  public static <K, IN1, IN2, OUT> TwoInputHarnessBuilder<IN1, IN2, OUT> forIntervalJoin(
      KeySelector<IN1, K> key1,
      KeySelector<IN2, K> key2,
      Duration lower,
      Duration upper,
      ProcessJoinFunction<IN1, IN2, OUT> function) {
    OperatorSpec spec =
        new OperatorSpec.IntervalJoin(function, lower.toMillis(), upper.toMillis(), 1, key2);
    return new TwoInputHarnessBuilder<>(forSpec(spec, key1), key2);
  }

  /**
   * A keyed broadcast process function, as {@code keyed.connect(other.broadcast(descriptors))}:
   * give broadcast elements with {@link TwoInputOperatorTestHarness#processBroadcastElement}.
   */
  public static <K, IN, B, OUT> TwoInputHarnessBuilder<IN, B, OUT> forKeyedBroadcastProcess(
      KeySelector<IN, K> key,
      KeyedBroadcastProcessFunction<K, IN, B, OUT> function,
      MapStateDescriptor<?, ?>... descriptors) {
    OperatorSpec spec = new OperatorSpec.KeyedBroadcastProcess(function, 1, List.of(descriptors));
    return new TwoInputHarnessBuilder<>(forSpec(spec, key), null);
  }

  /**
   * A sink; each start and restore gets a new instance from {@code sinks}, as a restarted process
   * builds its sink anew (not a serialized copy, so a test's sink may hold a fake external system).
   */
  @SuppressWarnings("unchecked")
  public static <IN> OperatorHarnessBuilder<IN, Void> forSink(
      Supplier<? extends SinkFunction<IN>> sinks) {
    return new OperatorHarnessBuilder<>(
        "Sink",
        null,
        (setup, output) -> new SinkOperator(setup, (SinkFunction<Object>) sinks.get(), output),
        (name, snapshot) -> settleTransactions(name, sinks.get(), snapshot),
        false);
  }

  private static <IN, OUT> OperatorHarnessBuilder<IN, OUT> forSpec(
      OperatorSpec spec, KeySelector<IN, ?> key) {
    JobConfig config = new JobConfig();
    return new OperatorHarnessBuilder<>(
        spec.kind(),
        key,
        (setup, output) -> OperatorFactory.create(spec, setup, output, config),
        OperatorUnderTest.Recovery.NONE,
        !(spec instanceof OperatorSpec.Sink));
  }

  /**
   * The job-level recovery step of a restore, with an instance of its own, as the runtime runs it
   * before a restored job's tasks start: a two-phase-commit sink's recorded transactions are
   * settled (committed, or proven lost) before any restored subtask opens a transaction.
   */
  private static void settleTransactions(
      String name, SinkFunction<?> sink, OperatorSnapshot snapshot) throws Exception {
    if (sink instanceof RecoverableSink recoverable) {
      SinkRecoveryStep.settle(name, recoverable, snapshot.state(), snapshot.checkpointId(), false);
    }
  }
}
