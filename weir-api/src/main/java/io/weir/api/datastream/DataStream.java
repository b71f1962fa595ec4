package io.weir.api.datastream;

import io.weir.api.annotation.Public;
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
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.StateSerializer;
import java.util.ArrayList;
import java.util.List;

/**
 * A stream of records of type {@code T}. Each method adds an operator that reads this stream and
 * returns the operator's output; the settings methods ({@link #name}, {@link #uid}, ...) change the
 * operator that made this stream.
 */
@Public
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

  /**
   * One output record per input record. The function runs in every subtask of the new operator, on
   * the task thread, one record at a time; it keeps the input's timestamp. Chained to this stream's
   * operator when the chaining rules allow.
   */
  public <R> DataStream<R> map(MapFunction<T, R> function) {
    return then(new OperatorSpec.Map(function));
  }

  /** The records for which the function returns true, with their timestamps, in their order. */
  public DataStream<T> filter(FilterFunction<T> function) {
    return then(new OperatorSpec.Filter(function));
  }

  /** Zero or more output records per input record, each with the input's timestamp. */
  public <R> DataStream<R> flatMap(FlatMapFunction<T, R> function) {
    return then(new OperatorSpec.FlatMap(function));
  }

  /**
   * The most general per-record operator: any number of records and side outputs per input, with
   * the record's timestamp and the current watermark in view. No keyed state or timers: use {@code
   * keyBy(...).process(...)} for those.
   */
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

  /**
   * Partitions the stream by key: every record of a key goes to the same subtask of the next
   * operator (by key group, so that state can move on rescale), which gets keyed state and timers.
   * The selector must be deterministic (see {@link KeySelector}). Breaks the chain.
   */
  public <K> KeyedStream<T, K> keyBy(KeySelector<T, K> keySelector) {
    List<Input> keyed = new ArrayList<>();
    for (Input input : downstreamInputs) {
      keyed.add(new Input(input.from(), new Partitioning.Hash(keySelector)));
    }
    return new KeyedStream<>(env, transformation, keyed, keySelector);
  }

  /**
   * Sends every record to every subtask of the operator it is connected to, which keeps the given
   * broadcast states: connect a keyed stream to the result with {@code keyed.connect(broadcast)}.
   */
  public BroadcastStream<T> broadcast(MapStateDescriptor<?, ?>... descriptors) {
    List<Input> broadcast = new ArrayList<>();
    for (Input input : downstreamInputs) {
      broadcast.add(new Input(input.from(), Partitioning.BROADCAST));
    }
    return new BroadcastStream<>(broadcast, List.of(descriptors));
  }

  /** Sends records round robin to the next operator's subtasks. */
  public DataStream<T> rebalance() {
    List<Input> rebalanced = new ArrayList<>();
    for (Input input : downstreamInputs) {
      rebalanced.add(new Input(input.from(), Partitioning.REBALANCE));
    }
    return new DataStream<>(env, transformation, rebalanced);
  }

  /**
   * This stream and {@code other}, read together by the next operator (a two-input operator); the
   * two may have different types. Connect two keyed streams (or call {@link
   * ConnectedStreams#keyBy}) for keyed state and timers shared by both.
   */
  public <R> ConnectedStreams<T, R> connect(DataStream<R> other) {
    return new ConnectedStreams<>(env, this, other);
  }

  @SafeVarargs
  /**
   * This stream's records and those of {@code others}, interleaved in no promised order; each input
   * keeps its own order. The union has no operator of its own, so it takes no name or uid.
   */
  public final DataStream<T> union(DataStream<T>... others) {
    List<Input> all = new ArrayList<>(downstreamInputs);
    for (DataStream<T> other : others) {
      all.addAll(other.downstreamInputs);
    }
    return new DataStream<>(env, null, all);
  }

  /** Starts a window join of this stream with {@code other}; see {@link JoinedStreams}. */
  public <U> JoinedStreams<T, U> join(DataStream<U> other) {
    return new JoinedStreams<>(this, other);
  }

  /**
   * Gives each record the timestamp of the strategy's assigner and emits the strategy's watermarks
   * (periodically, at the job's auto-watermark interval); watermarks from upstream are dropped,
   * except the one that marks the end of the input.
   */
  public DataStream<T> assignTimestampsAndWatermarks(WatermarkStrategy<T> strategy) {
    return then(new OperatorSpec.Timestamps(strategy));
  }

  /**
   * Writes the stream into {@code sink}. Exactly-once needs a sink that takes part in checkpoints,
   * such as a {@code TwoPhaseCommitSinkFunction} subclass; any other sink sees records again after
   * a restore.
   */
  public DataStreamSink<T> addSink(SinkFunction<T> sink) {
    Transformation t = env.add(new OperatorSpec.Sink(sink), downstreamInputs, -1);
    return new DataStreamSink<>(t);
  }

  /** Prints each record to standard output; for trying things out, not exactly-once. */
  public DataStreamSink<T> print() {
    return addSink(new PrintSink<>()).name("Print to Std. Out");
  }

  /** The operator's name, as plans, logs and errors show it. */
  public DataStream<T> name(String name) {
    transformation().setName(name);
    return this;
  }

  /**
   * The operator's stable id, by which its state is found in a checkpoint. Set it on every stateful
   * operator: without it the id comes from the order in which the job created its operators, so
   * adding or removing an operator before it loses its state.
   */
  public DataStream<T> uid(String uid) {
    transformation().setUid(uid);
    return this;
  }

  /**
   * Encodes this stream's records with {@code serializer} wherever they travel between task
   * managers (a cluster's exchange), instead of Java serialization, which needs {@code
   * Serializable} records and writes their class descriptions. Within one JVM records are handed
   * over as they are, without either. The serializer is shared by the task's threads: keep it
   * stateless. On a keyed stream it applies to the records of the stream that was keyed.
   */
  public DataStream<T> withSerializer(StateSerializer<T> serializer) {
    transformation().setSerializer(serializer);
    return this;
  }

  /**
   * Declares the class of this stream's records, which Java's erasure hides from lambdas: wherever
   * they travel between task managers they are written by the default serializer of {@code type}
   * ({@link io.weir.api.types.TypeSerializer}), chosen once when the job is built. A type it cannot
   * serialize fails the build in one line naming the type and this operator, unless the job allows
   * Java serialization for it ({@link JobConfig#allowJavaSerialization}). A serializer given to
   * {@link #withSerializer} takes precedence.
   */
  public DataStream<T> returns(Class<T> type) {
    transformation().setRecordType(type);
    return this;
  }

  /** The number of subtasks of this stream's operator; by default the job's parallelism. */
  public DataStream<T> setParallelism(int parallelism) {
    transformation().setParallelism(parallelism);
    return this;
  }

  /** Runs this stream's operator in a task of its own: chained neither to its input nor output. */
  public DataStream<T> disableChaining() {
    transformation().setChainingStrategy(ChainingStrategy.NEVER);
    return this;
  }

  /**
   * Starts a new chain at this stream's operator: not chained to its input, but its output may be.
   */
  public DataStream<T> startNewChain() {
    transformation().setChainingStrategy(ChainingStrategy.HEAD);
    return this;
  }

  /**
   * The environment this stream belongs to: where code that is handed only a stream adds further
   * sources to the same job (a side input, say).
   */
  public StreamEnvironment getExecutionEnvironment() {
    return env;
  }

  /** The operator that produces this stream. */
  public Transformation transformation() {
    if (transformation == null) {
      throw new IllegalStateException(
          "A union has no operator of its own: set names and uids on its inputs");
    }
    return transformation;
  }

  /** The class {@link #returns} declared, or null when none was (always for a union). */
  Class<?> declaredRecordType() {
    return transformation == null ? null : transformation.recordType();
  }

  <R> DataStream<R> then(OperatorSpec spec) {
    return new DataStream<>(env, env.add(spec, downstreamInputs, -1));
  }

  List<Input> downstreamInputs() {
    return downstreamInputs;
  }
}
