package io.weir.runtime.operators.window;

import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;

/**
 * How a window folds its records into the one value it keeps in keyed state, and what it emits when
 * it fires. Called on the task thread only; the value it returns is stored as the window's new
 * state and must be serializable, as all heap state is.
 */
public interface WindowAccumulator {
  /**
   * Folds {@code record} into the window's state.
   *
   * @param accumulated the window's state so far, or null when the record is its first
   * @return the window's new state, never null
   */
  Object add(Object accumulated, Object record) throws Exception;

  /** What the window emits for its state when it fires. */
  Object result(Object accumulated);

  /** The accumulator for the reduce or the aggregate function of {@code spec}. */
  @SuppressWarnings("unchecked")
  static WindowAccumulator of(OperatorSpec.Window spec) {
    if (spec.reduce() != null) {
      return new Reducing((ReduceFunction<Object>) spec.reduce());
    }
    if (spec.aggregate() != null) {
      return new Aggregating((AggregateFunction<Object, Object, Object>) spec.aggregate());
    }
    throw new IllegalArgumentException("A window needs a reduce or an aggregate function");
  }

  /** Keeps the reduced record itself. */
  record Reducing(ReduceFunction<Object> function) implements WindowAccumulator {
    @Override
    public Object add(Object accumulated, Object record) throws Exception {
      return accumulated == null ? record : function.reduce(accumulated, record);
    }

    @Override
    public Object result(Object accumulated) {
      return accumulated;
    }
  }

  /** Keeps the aggregate function's accumulator and emits its result. */
  record Aggregating(AggregateFunction<Object, Object, Object> function)
      implements WindowAccumulator {
    @Override
    public Object add(Object accumulated, Object record) {
      return function.add(record, accumulated == null ? function.createAccumulator() : accumulated);
    }

    @Override
    public Object result(Object accumulated) {
      return function.getResult(accumulated);
    }
  }
}
