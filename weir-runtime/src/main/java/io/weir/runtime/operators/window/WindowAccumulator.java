package io.weir.runtime.operators.window;

import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.ReduceFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * How a window folds its records into the one value it keeps in keyed state, and what it hands on
 * when it fires. Called on the task thread only; the value it returns is stored as the window's new
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

  /** The state of a window that two windows of one key merged into; both are non-null. */
  Object merge(Object first, Object second) throws Exception;

  /** What the window's records come to when it fires: one value, or all of them. */
  Iterable<Object> results(Object accumulated);

  /**
   * The accumulator of a window with these functions: the reduce's, the aggregate's, or, when
   * neither is set, the list of the window's records.
   */
  @SuppressWarnings("unchecked")
  static WindowAccumulator of(ReduceFunction<?> reduce, AggregateFunction<?, ?, ?> aggregate) {
    if (reduce != null) {
      return new Reducing((ReduceFunction<Object>) reduce);
    }
    if (aggregate != null) {
      return new Aggregating((AggregateFunction<Object, Object, Object>) aggregate);
    }
    return new Listing();
  }

  /** Keeps the reduced record itself. */
  record Reducing(ReduceFunction<Object> function) implements WindowAccumulator {
    @Override
    public Object add(Object accumulated, Object record) throws Exception {
      return accumulated == null ? record : function.reduce(accumulated, record);
    }

    @Override
    public Object merge(Object first, Object second) throws Exception {
      return function.reduce(first, second);
    }

    @Override
    public Iterable<Object> results(Object accumulated) {
      return List.of(accumulated);
    }
  }

  /** Keeps the aggregate function's accumulator and hands on its result. */
  record Aggregating(AggregateFunction<Object, Object, Object> function)
      implements WindowAccumulator {
    @Override
    public Object add(Object accumulated, Object record) {
      return function.add(record, accumulated == null ? function.createAccumulator() : accumulated);
    }

    @Override
    public Object merge(Object first, Object second) {
      return function.merge(first, second);
    }

    @Override
    public Iterable<Object> results(Object accumulated) {
      return List.of(function.getResult(accumulated));
    }
  }

  /** Keeps every record, in arrival order, for a process window function. */
  record Listing() implements WindowAccumulator {
    @Override
    @SuppressWarnings("unchecked")
    public Object add(Object accumulated, Object record) {
      ArrayList<Object> records =
          accumulated == null ? new ArrayList<>() : (ArrayList<Object>) accumulated;
      records.add(record);
      return records;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object merge(Object first, Object second) {
      ArrayList<Object> records = (ArrayList<Object>) first;
      records.addAll((ArrayList<Object>) second);
      return records;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Iterable<Object> results(Object accumulated) {
      return (List<Object>) accumulated;
    }
  }
}
