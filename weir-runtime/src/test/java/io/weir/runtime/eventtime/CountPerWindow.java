package io.weir.runtime.eventtime;

import io.weir.api.functions.AggregateFunction;

/** Counts the records of a window. */
final class CountPerWindow implements AggregateFunction<Long, Long, Long> {
  @Override
  public Long createAccumulator() {
    return 0L;
  }

  @Override
  public Long add(Long value, Long count) {
    return count + 1;
  }

  @Override
  public Long getResult(Long count) {
    return count;
  }

  @Override
  public Long merge(Long a, Long b) {
    return a + b;
  }
}
