package io.weir.api.graph;

import io.weir.api.annotation.Internal;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.CoFlatMapFunction;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.FilterFunction;
import io.weir.api.functions.FlatMapFunction;
import io.weir.api.functions.Function;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessFunction;
import io.weir.api.functions.ProcessJoinFunction;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.SourceFunction;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.windowing.WindowAssigner;

/**
 * What an operator of the stream graph does, as the user described it. The runtime turns each kind
 * into an operator; the user's function objects are kept as they are.
 */
@Internal
public sealed interface OperatorSpec {
  /** The short name shown in plans, e.g. {@code Map}. */
  String kind();

  /** A {@link SourceFunction} or an {@link io.weir.api.source.ReaderSource}. */
  record Source(Function function) implements OperatorSpec {
    public String kind() {
      return "Source";
    }
  }

  record Map(MapFunction<?, ?> function) implements OperatorSpec {
    public String kind() {
      return "Map";
    }
  }

  record Filter(FilterFunction<?> function) implements OperatorSpec {
    public String kind() {
      return "Filter";
    }
  }

  record FlatMap(FlatMapFunction<?, ?> function) implements OperatorSpec {
    public String kind() {
      return "Flat Map";
    }
  }

  record Process(ProcessFunction<?, ?> function) implements OperatorSpec {
    public String kind() {
      return "Process";
    }
  }

  record KeyedProcess(KeyedProcessFunction<?, ?, ?> function) implements OperatorSpec {
    public String kind() {
      return "Keyed Process";
    }
  }

  /** A rolling reduce per key. */
  record Reduce(ReduceFunction<?> function) implements OperatorSpec {
    public String kind() {
      return "Reduce";
    }
  }

  /**
   * A window per key: at most one of {@code reduce} and {@code aggregate} is set; {@code
   * windowFunction}, when set, makes the window's result from the pre-aggregated value, or from all
   * the window's records when neither of the other two is set. Records later than the window's end
   * plus {@code allowedLatenessMillis} go to {@code lateOutput} when set, and are dropped and
   * counted otherwise.
   */
  record Window(
      WindowAssigner<?> assigner,
      ReduceFunction<?> reduce,
      AggregateFunction<?, ?, ?> aggregate,
      ProcessWindowFunction<?, ?, ?, ?> windowFunction,
      long allowedLatenessMillis,
      OutputTag<?> lateOutput)
      implements OperatorSpec {
    /** A window folded by its reduce or aggregate function alone. */
    public Window(
        WindowAssigner<?> assigner,
        ReduceFunction<?> reduce,
        AggregateFunction<?, ?, ?> aggregate,
        long allowedLatenessMillis,
        OutputTag<?> lateOutput) {
      this(assigner, reduce, aggregate, null, allowedLatenessMillis, lateOutput);
    }

    public String kind() {
      return "Window";
    }
  }

  /**
   * A count window per key: fires and is cleared each time it holds {@code size} records. Functions
   * as for {@link Window}.
   */
  record CountWindow(
      long size,
      ReduceFunction<?> reduce,
      AggregateFunction<?, ?, ?> aggregate,
      ProcessWindowFunction<?, ?, ?, ?> windowFunction)
      implements OperatorSpec {
    public String kind() {
      return "Count Window";
    }
  }

  record Timestamps(WatermarkStrategy<?> strategy) implements OperatorSpec {
    public String kind() {
      return "Timestamps/Watermarks";
    }
  }

  /** Selects the records of a side output of its single input. */
  record SideOutput(OutputTag<?> tag) implements OperatorSpec {
    public String kind() {
      return "Side Output";
    }
  }

  record Sink(SinkFunction<?> function) implements OperatorSpec {
    public String kind() {
      return "Sink";
    }
  }

  /**
   * An operator with two inputs of possibly different types. The transformation's inputs list both:
   * its first {@link #firstInputs()} inputs (more than one after a union) are the first input, the
   * rest the second. On connected keyed streams the first input is keyed by the key selector of its
   * hash partitioning and the second by {@link #secondKey()}; otherwise that is null.
   */
  sealed interface TwoInput extends OperatorSpec {
    int firstInputs();

    KeySelector<?, ?> secondKey();
  }

  record CoMap(CoMapFunction<?, ?, ?> function, int firstInputs, KeySelector<?, ?> secondKey)
      implements TwoInput {
    public String kind() {
      return "Co-Map";
    }
  }

  record CoFlatMap(
      CoFlatMapFunction<?, ?, ?> function, int firstInputs, KeySelector<?, ?> secondKey)
      implements TwoInput {
    public String kind() {
      return "Co-Flat Map";
    }
  }

  record CoProcess(
      CoProcessFunction<?, ?, ?> function, int firstInputs, KeySelector<?, ?> secondKey)
      implements TwoInput {
    public String kind() {
      return "Co-Process";
    }
  }

  record KeyedCoProcess(
      KeyedCoProcessFunction<?, ?, ?, ?> function, int firstInputs, KeySelector<?, ?> secondKey)
      implements TwoInput {
    public String kind() {
      return "Keyed Co-Process";
    }
  }

  /**
   * Joins each left record with every right record of its key whose timestamp lies in {@code [left
   * + lowerMillis, left + upperMillis]}, both bounds inclusive.
   */
  record IntervalJoin(
      ProcessJoinFunction<?, ?, ?> function,
      long lowerMillis,
      long upperMillis,
      int firstInputs,
      KeySelector<?, ?> secondKey)
      implements TwoInput {
    public String kind() {
      return "Interval Join";
    }
  }

  /**
   * A keyed first input and a broadcast second input, with the broadcast states the function keeps
   * (every subtask the same).
   */
  record KeyedBroadcastProcess(
      KeyedBroadcastProcessFunction<?, ?, ?, ?> function,
      int firstInputs,
      java.util.List<MapStateDescriptor<?, ?>> descriptors)
      implements TwoInput {
    public String kind() {
      return "Keyed Broadcast Process";
    }

    /** The broadcast input has no key. */
    public KeySelector<?, ?> secondKey() {
      return null;
    }
  }
}
