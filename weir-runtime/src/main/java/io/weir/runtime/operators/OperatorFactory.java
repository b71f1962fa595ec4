package io.weir.runtime.operators;

import io.weir.api.datastream.JobConfig;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.CoFlatMapFunction;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.FilterFunction;
import io.weir.api.functions.FlatMapFunction;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.ProcessFunction;
import io.weir.api.functions.ProcessJoinFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.sink.SinkFunction;

/** Makes the runtime operator for each kind of operator the API describes. */
public final class OperatorFactory {
  private OperatorFactory() {}

  public static StreamOperator create(
      OperatorSpec spec, OperatorSetup setup, Output output, JobConfig config) {
    return create(spec, setup, output, config, () -> {}, SplitDiscovery.BY_READERS);
  }

  /**
   * @param firstSinkRecord run once when a sink operator receives its first record (ignored by the
   *     other kinds)
   * @param splitDiscovery who finds a pulled source's splits (ignored by the other kinds)
   */
  @SuppressWarnings("unchecked")
  public static StreamOperator create(
      OperatorSpec spec,
      OperatorSetup setup,
      Output output,
      JobConfig config,
      Runnable firstSinkRecord,
      SplitDiscovery splitDiscovery) {
    spec = copyFunctions(spec, setup.name());
    if (spec instanceof OperatorSpec.Source s) {
      return new SourceOperator(setup, s.function(), output, splitDiscovery);
    } else if (spec instanceof OperatorSpec.Map m) {
      return new MapOperator(setup, (MapFunction<Object, Object>) m.function(), output);
    } else if (spec instanceof OperatorSpec.Filter f) {
      return new FilterOperator(setup, (FilterFunction<Object>) f.function(), output);
    } else if (spec instanceof OperatorSpec.FlatMap f) {
      return new FlatMapOperator(setup, (FlatMapFunction<Object, Object>) f.function(), output);
    } else if (spec instanceof OperatorSpec.Process p) {
      return new ProcessOperator(setup, (ProcessFunction<Object, Object>) p.function(), output);
    } else if (spec instanceof OperatorSpec.KeyedProcess p) {
      return new KeyedProcessOperator(
          setup, (KeyedProcessFunction<Object, Object, Object>) p.function(), output);
    } else if (spec instanceof OperatorSpec.Reduce r) {
      return new ReduceOperator(setup, (ReduceFunction<Object>) r.function(), output);
    } else if (spec instanceof OperatorSpec.Window w) {
      return new WindowOperator(setup, w, output);
    } else if (spec instanceof OperatorSpec.CountWindow w) {
      return new CountWindowOperator(setup, w, output);
    } else if (spec instanceof OperatorSpec.Timestamps t) {
      return new TimestampsOperator(
          setup, (WatermarkStrategy<Object>) t.strategy(), config.autoWatermarkInterval(), output);
    } else if (spec instanceof OperatorSpec.SideOutput s) {
      return new SideOutputOperator(setup, s.tag(), output);
    } else if (spec instanceof OperatorSpec.Sink s) {
      return new SinkOperator(setup, (SinkFunction<Object>) s.function(), output, firstSinkRecord);
    } else if (spec instanceof OperatorSpec.TwoInput two) {
      return createTwoInput(two, setup, output);
    }
    throw new IllegalArgumentException("Unknown operator kind " + spec.kind());
  }

  @SuppressWarnings("unchecked")
  private static TwoInputStreamOperator createTwoInput(
      OperatorSpec.TwoInput spec, OperatorSetup setup, Output output) {
    if (spec instanceof OperatorSpec.CoMap m) {
      return new CoMapOperator(
          setup, (CoMapFunction<Object, Object, Object>) m.function(), m.secondKey(), output);
    } else if (spec instanceof OperatorSpec.CoFlatMap f) {
      return new CoFlatMapOperator(
          setup, (CoFlatMapFunction<Object, Object, Object>) f.function(), f.secondKey(), output);
    } else if (spec instanceof OperatorSpec.CoProcess p) {
      return new CoProcessOperator(
          setup, (CoProcessFunction<Object, Object, Object>) p.function(), p.secondKey(), output);
    } else if (spec instanceof OperatorSpec.KeyedCoProcess p) {
      return new KeyedCoProcessOperator(
          setup,
          (KeyedCoProcessFunction<Object, Object, Object, Object>) p.function(),
          p.secondKey(),
          output);
    } else if (spec instanceof OperatorSpec.IntervalJoin j) {
      return new IntervalJoinOperator(
          setup,
          (ProcessJoinFunction<Object, Object, Object>) j.function(),
          j.lowerMillis(),
          j.upperMillis(),
          j.secondKey(),
          output);
    } else if (spec instanceof OperatorSpec.KeyedBroadcastProcess b) {
      return new KeyedBroadcastProcessOperator(
          setup,
          (KeyedBroadcastProcessFunction<Object, Object, Object, Object>) b.function(),
          b.descriptors(),
          output);
    }
    throw new IllegalArgumentException("Unknown two-input operator kind " + spec.kind());
  }

  /** The spec with this subtask's own copies of the user's functions. */
  private static OperatorSpec copyFunctions(OperatorSpec spec, String name) {
    if (spec instanceof OperatorSpec.Source s) {
      return new OperatorSpec.Source(FunctionCopier.copy(s.function(), name));
    } else if (spec instanceof OperatorSpec.Map m) {
      return new OperatorSpec.Map(FunctionCopier.copy(m.function(), name));
    } else if (spec instanceof OperatorSpec.Filter f) {
      return new OperatorSpec.Filter(FunctionCopier.copy(f.function(), name));
    } else if (spec instanceof OperatorSpec.FlatMap f) {
      return new OperatorSpec.FlatMap(FunctionCopier.copy(f.function(), name));
    } else if (spec instanceof OperatorSpec.Process p) {
      return new OperatorSpec.Process(FunctionCopier.copy(p.function(), name));
    } else if (spec instanceof OperatorSpec.KeyedProcess p) {
      return new OperatorSpec.KeyedProcess(FunctionCopier.copy(p.function(), name));
    } else if (spec instanceof OperatorSpec.Reduce r) {
      return new OperatorSpec.Reduce(FunctionCopier.copy(r.function(), name));
    } else if (spec instanceof OperatorSpec.Window w) {
      return new OperatorSpec.Window(
          FunctionCopier.copy(w.assigner(), name),
          FunctionCopier.copy(w.reduce(), name),
          FunctionCopier.copy(w.aggregate(), name),
          FunctionCopier.copy(w.windowFunction(), name),
          w.allowedLatenessMillis(),
          w.lateOutput());
    } else if (spec instanceof OperatorSpec.CountWindow w) {
      return new OperatorSpec.CountWindow(
          w.size(),
          FunctionCopier.copy(w.reduce(), name),
          FunctionCopier.copy(w.aggregate(), name),
          FunctionCopier.copy(w.windowFunction(), name));
    } else if (spec instanceof OperatorSpec.Timestamps t) {
      return new OperatorSpec.Timestamps(FunctionCopier.copy(t.strategy(), name));
    } else if (spec instanceof OperatorSpec.Sink s) {
      return new OperatorSpec.Sink(FunctionCopier.copy(s.function(), name));
    } else if (spec instanceof OperatorSpec.TwoInput two) {
      return copyTwoInputFunctions(two, name);
    }
    return spec;
  }

  private static OperatorSpec copyTwoInputFunctions(OperatorSpec.TwoInput spec, String name) {
    int first = spec.firstInputs();
    if (spec instanceof OperatorSpec.CoMap m) {
      return new OperatorSpec.CoMap(FunctionCopier.copy(m.function(), name), first, m.secondKey());
    } else if (spec instanceof OperatorSpec.CoFlatMap f) {
      return new OperatorSpec.CoFlatMap(
          FunctionCopier.copy(f.function(), name), first, f.secondKey());
    } else if (spec instanceof OperatorSpec.CoProcess p) {
      return new OperatorSpec.CoProcess(
          FunctionCopier.copy(p.function(), name), first, p.secondKey());
    } else if (spec instanceof OperatorSpec.KeyedCoProcess p) {
      return new OperatorSpec.KeyedCoProcess(
          FunctionCopier.copy(p.function(), name), first, p.secondKey());
    } else if (spec instanceof OperatorSpec.IntervalJoin j) {
      return new OperatorSpec.IntervalJoin(
          FunctionCopier.copy(j.function(), name),
          j.lowerMillis(),
          j.upperMillis(),
          first,
          j.secondKey());
    } else if (spec instanceof OperatorSpec.KeyedBroadcastProcess b) {
      return new OperatorSpec.KeyedBroadcastProcess(
          FunctionCopier.copy(b.function(), name), first, b.descriptors());
    }
    return spec;
  }
}
