package io.weir.api.datastream;

import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.FilterFunction;
import io.weir.api.functions.FlatMapFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessFunction;
import io.weir.api.graph.ChainingStrategy;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Partitioning;
import io.weir.api.graph.Transformation;
import io.weir.api.sink.PrintSink;
import io.weir.api.sink.SinkFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * A stream of records of type {@code T}. Each method adds an operator that reads this stream and
 * returns the operator's output; the settings methods ({@link #name}, {@link #uid}, ...) change the
 * operator that made this stream.
 */
public class DataStream<T> {
  final StreamEnvironment env;
  private final Transformation transformation;
  private final List<Input> downstreamInputs;

  DataStream(StreamEnvironment env, Transformation transformation) {
    this(env, transformation, List.of(new Input(transformation, Partitioning.FORWARD)));
  }

  DataStream(StreamEnvironment env, Transformation transformation, List<Input> downstreamInputs) {
    this.env = env;
    this.transformation = transformation;
    this.downstreamInputs = List.copyOf(downstreamInputs);
  }

  public <R> DataStream<R> map(MapFunction<T, R> function) {
    return then(new OperatorSpec.Map(function));
  }

  public DataStream<T> filter(FilterFunction<T> function) {
    return then(new OperatorSpec.Filter(function));
  }

  public <R> DataStream<R> flatMap(FlatMapFunction<T, R> function) {
    return then(new OperatorSpec.FlatMap(function));
  }

  public <R> DataStream<R> process(ProcessFunction<T, R> function) {
    return then(new OperatorSpec.Process(function));
  }

  /** The records that this stream's operator emitted to {@code tag}. */
  public <X> DataStream<X> getSideOutput(OutputTag<X> tag) {
    DataStream<X> side = then(new OperatorSpec.SideOutput(tag));
    side.transformation()
        .setParallelism(
            transformation().parallelism() > 0
                ? transformation().parallelism()
                : env.config().parallelism());
    return side;
  }

  public <K> KeyedStream<T, K> keyBy(KeySelector<T, K> keySelector) {
    List<Input> keyed = new ArrayList<>();
    for (Input input : downstreamInputs) {
      keyed.add(new Input(input.from(), new Partitioning.Hash(keySelector)));
    }
    return new KeyedStream<>(env, transformation, keyed, keySelector);
  }

  /** Sends records round robin to the next operator's subtasks. */
  public DataStream<T> rebalance() {
    List<Input> rebalanced = new ArrayList<>();
    for (Input input : downstreamInputs) {
      rebalanced.add(new Input(input.from(), Partitioning.REBALANCE));
    }
    return new DataStream<>(env, transformation, rebalanced);
  }

  @SafeVarargs
  public final DataStream<T> union(DataStream<T>... others) {
    List<Input> all = new ArrayList<>(downstreamInputs);
    for (DataStream<T> other : others) {
      all.addAll(other.downstreamInputs);
    }
    return new DataStream<>(env, null, all);
  }

  public DataStream<T> assignTimestampsAndWatermarks(WatermarkStrategy<T> strategy) {
    return then(new OperatorSpec.Timestamps(strategy));
  }

  public DataStreamSink<T> addSink(SinkFunction<T> sink) {
    Transformation t = env.add(new OperatorSpec.Sink(sink), downstreamInputs, -1);
    return new DataStreamSink<>(t);
  }

  public DataStreamSink<T> print() {
    return addSink(new PrintSink<>()).name("Print to Std. Out");
  }

  public DataStream<T> name(String name) {
    transformation().setName(name);
    return this;
  }

  public DataStream<T> uid(String uid) {
    transformation().setUid(uid);
    return this;
  }

  public DataStream<T> setParallelism(int parallelism) {
    transformation().setParallelism(parallelism);
    return this;
  }

  public DataStream<T> disableChaining() {
    transformation().setChainingStrategy(ChainingStrategy.NEVER);
    return this;
  }

  public DataStream<T> startNewChain() {
    transformation().setChainingStrategy(ChainingStrategy.HEAD);
    return this;
  }

  /** The operator that produces this stream. */
  public Transformation transformation() {
    if (transformation == null) {
      throw new IllegalStateException(
          "A union has no operator of its own: set names and uids on its inputs");
    }
    return transformation;
  }

  <R> DataStream<R> then(OperatorSpec spec) {
    return new DataStream<>(env, env.add(spec, downstreamInputs, -1));
  }

  List<Input> downstreamInputs() {
    return downstreamInputs;
  }
}
